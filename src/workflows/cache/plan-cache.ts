import { isCancellation } from '@temporalio/workflow';
import type { CacheHit, Plan } from '../../domain';
import { planCacheRequest } from '../../domain/planning/cache-request';
import { goalKey, planToolsKey } from '../../domain/planning/goal-key';
import { planCacheActivities } from '../activity-proxies';
import type { RunContext } from '../core/state/run-context';

/**
 * Plan reuse (`cache.plans`): a plan made for a similar goal (the same goalKey) with the same tools,
 * by a run of the same tenant within the time-to-live. The caller records the hit as a visible
 * step. One `lookupCachedPlan` activity per planned run, and one `storeCachedPlan` when the planner
 * made the plan; none when plan caching is off. Neither fails the run: a lookup or store that
 * fails is a miss.
 */

/** A stored plan for this goal, or undefined (cache off, miss, expired). */
export async function reusePlan(
  ctx: RunContext,
  goal: string,
  toolNames: readonly string[],
): Promise<{ plan: Plan; hit: CacheHit } | undefined> {
  const cache = planCacheRequest(ctx.input);
  if (!cache) return undefined;
  let found: { plan: Plan; hit: CacheHit } | null;
  try {
    found = await planCacheActivities.lookupCachedPlan({
      cache,
      goalKey: goalKey(goal),
      tools: planToolsKey(toolNames),
    });
  } catch (err) {
    if (isCancellation(err)) throw err;
    return undefined;
  }
  if (!found) return undefined;
  return { plan: { ...freshPlan(found.plan), reusedFrom: found.hit }, hit: found.hit };
}

/** Stores a plan the planner made, for later runs with a similar goal (no-op when plan caching is off). */
export async function storePlan(
  ctx: RunContext,
  goal: string,
  toolNames: readonly string[],
  plan: Plan,
): Promise<void> {
  const cache = planCacheRequest(ctx.input);
  // Only plans the model made: a fallback or a workflow file's plan is not worth reusing, a cached one is stored already.
  if (!cache || (plan.source !== 'model' && plan.source !== 'repaired')) return;
  try {
    await planCacheActivities.storeCachedPlan({
      cache,
      goalKey: goalKey(goal),
      tools: planToolsKey(toolNames),
      plan: { tasks: plan.tasks.map(pendingTask), source: plan.source, version: 1 },
    });
  } catch (err) {
    if (isCancellation(err)) throw err;
  }
}

/** The stored plan as this run's first: every task pending again, nothing the other run learnt or reported. */
function freshPlan(stored: Plan): Plan {
  return { tasks: stored.tasks.map(pendingTask), source: 'cached', version: 1 };
}

function pendingTask(task: Plan['tasks'][number]): Plan['tasks'][number] {
  const { note: _note, result: _result, error: _error, ...rest } = task;
  return { ...rest, status: 'pending' };
}
