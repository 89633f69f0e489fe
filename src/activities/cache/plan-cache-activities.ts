import { Context } from '@temporalio/activity';
import { Plan, type CacheHit, type CacheRequest } from '../../domain';
import { SIMILAR_THRESHOLD } from '../../domain/text/similarity';
import { lookupCached, storeCached } from './cached-result';
import { lookupSimilarPlan } from './similar-plan';
import type { RunCache } from './run-cache';

/** Input of both plan activities: whose cache, and the plan's key (goalKey and the run's sorted tool names). */
export interface PlanCacheKey {
  cache: CacheRequest;
  goalKey: string;
  tools: string[];
  /** How alike another goal must be for its plan to be reused when this goal has none (0–1); default SIMILAR_THRESHOLD, 1 the same key only. */
  similarity?: number;
}

/**
 * Plan reuse (`cache.plans`): one lookup when a run plans, one store after the planner made a plan.
 * Neither fails a run: a store that is down, or an entry that is not a plan, is a miss.
 */
export function createPlanCacheActivities(cache: RunCache | undefined) {
  return {
    /**
     * The plan stored for this tenant, goal key and tools within the time-to-live; else the one
     * stored for the most similar goal with the same tools (its hit says how alike); else null.
     */
    async lookupCachedPlan(input: PlanCacheKey): Promise<{ plan: Plan; hit: CacheHit } | null> {
      if (!cache) return null;
      const threshold = input.similarity ?? SIMILAR_THRESHOLD;
      const found =
        lookupCached(cache, input.cache, 'plan', input.goalKey, input.tools) ??
        (threshold < 1 ? lookupSimilarPlan(cache, input.cache, input.goalKey, input.tools, threshold) : undefined);
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
