import type { CacheHit, Plan } from '../../shared';
import type { RunContext } from '../core/run-context';

/**
 * Plan reuse (`cache.plans`): a plan made for a similar goal with the same tools, by a run of the
 * same tenant within the time-to-live. The caller records the hit as a visible step.
 */

/** A stored plan for this goal, or undefined (cache off, miss, expired). */
export async function reusePlan(
  ctx: RunContext,
  goal: string,
  toolNames: readonly string[],
): Promise<{ plan: Plan; hit: CacheHit } | undefined> {
  void ctx;
  void goal;
  void toolNames;
  return undefined;
}

/** Stores a plan the planner made, for later runs with a similar goal (no-op when plan caching is off). */
export async function storePlan(
  ctx: RunContext,
  goal: string,
  toolNames: readonly string[],
  plan: Plan,
): Promise<void> {
  void ctx;
  void goal;
  void toolNames;
  void plan;
}
