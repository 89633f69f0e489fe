import type { AgentInput, CacheHit, Plan } from '../../../src/domain';
import type { RunContext } from '../../../src/workflows/core/state/run-context';
import { reusePlan, storePlan } from '../../../src/workflows/cache/plan-cache';

/**
 * A workflow that calls plan reuse as the planner does (reusePlan, and storePlan when it made a
 * plan), with a run context of the input alone: what these two functions read.
 */
export async function planCacheProbe(
  input: AgentInput,
  goal: string,
  tools: string[],
  made?: Plan,
): Promise<{ plan: Plan; hit: CacheHit } | null> {
  const ctx = { input } as RunContext;
  const reused = await reusePlan(ctx, goal, tools);
  if (!reused && made) await storePlan(ctx, goal, tools, made);
  return reused ?? null;
}
