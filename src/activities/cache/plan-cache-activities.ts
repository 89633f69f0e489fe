import { Context } from '@temporalio/activity';
import { Plan, type CacheHit, type CacheRequest } from '../../domain';
import { lookupCached, storeCached } from './cached-result';
import type { RunCache } from './run-cache';

/** Input of both plan activities: whose cache, and the plan's key (goalKey and the run's sorted tool names). */
export interface PlanCacheKey {
  cache: CacheRequest;
  goalKey: string;
  tools: string[];
}

/**
 * Plan reuse (`cache.plans`): one lookup when a run plans, one store after the planner made a plan.
 * Neither fails a run: a store that is down, or an entry that is not a plan, is a miss.
 */
export function createPlanCacheActivities(cache: RunCache | undefined) {
  return {
    /** The plan stored for this tenant, goal key and tools within the time-to-live, or null. */
    async lookupCachedPlan(input: PlanCacheKey): Promise<{ plan: Plan; hit: CacheHit } | null> {
      if (!cache) return null;
      const found = lookupCached(cache, input.cache, 'plan', input.goalKey, input.tools);
      const plan = found && Plan.safeParse(found.value);
      return found && plan?.success ? { plan: plan.data, hit: found.hit } : null;
    },

    /** Keeps a plan for later runs with a similar goal; false when it is not kept (no store, too big). */
    async storeCachedPlan(input: PlanCacheKey & { plan: Plan }): Promise<boolean> {
      if (!cache) return false;
      const info = Context.current().info;
      const fromRun = info.workflowExecution?.workflowId ?? info.activityId;
      return storeCached(cache, input.cache, 'plan', input.goalKey, input.tools, input.plan, fromRun);
    },
  };
}
