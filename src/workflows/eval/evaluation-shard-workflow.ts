import { setCurrentDetails, setHandler } from '@temporalio/workflow';
import { markdownCode } from '../../domain/text/markdown-escape';
import { evaluationProgressQuery } from './eval-messages';
import { UnitPool } from './unit-pool';
import type { PlanOutcome, UnitPlan } from './unit-plan';

/**
 * One shard of a large evaluation: its units run here, so their child starts and results fill
 * this history instead of the evaluation's (evaluation-workflow.ts says why). It answers the same
 * progress query, for its own units.
 */
export async function evaluationShardWorkflow(plan: UnitPlan): Promise<PlanOutcome> {
  const pool = new UnitPool(plan, () => {
    const p = pool.progress();
    setCurrentDetails(
      `**Shard of evaluation ${markdownCode(plan.evaluationId)}**: ${p.done} of ${p.total} done, ${p.running} running.`,
    );
  });
  setHandler(evaluationProgressQuery, () => pool.progress());
  return pool.run();
}
