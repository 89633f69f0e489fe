import type { WorkflowExecutionInfo } from '@temporalio/client';
import { CostAttribute, IterationAttribute, ModelAttribute, StatusAttribute, TokensAttribute } from '../../domain';
import { TerminationReason } from '../../domain/run/termination';
import { originOfMemo, type RunOrigin } from '../../domain/run/run-origin';

/**
 * How a run went, as a run list shows it beside its state: what Temporal's visibility holds, no
 * query to a worker and no history read. The CLI's `runs` and `GET /v1/runs` read it the same way.
 */
export interface RunListFacts {
  /** Iterations, tokens and cost as the run's last upsert recorded them: final once it ended. */
  iterations?: number;
  tokens?: number;
  costUsd?: number;
  /**
   * The model that answered the run's last model call, from the upsert that recorded its ending.
   * Before that upsert (a running run, a terminated one) the attribute may still hold the model
   * the start asked for, so none is shown.
   */
  model?: string;
  /** What started it when no person did directly: a schedule or a webhook delivery. */
  origin?: RunOrigin;
  /** From its start to its close; absent while it runs. */
  durationMs?: number;
}

export function runListFacts(info: WorkflowExecutionInfo): RunListFacts {
  const attributes = info.typedSearchAttributes;
  // The run's own ending upsert writes its termination reason, and the model that answered, together.
  const ended = TerminationReason.safeParse(attributes.get(StatusAttribute)).success;
  const iterations = attributes.get(IterationAttribute);
  const tokens = attributes.get(TokensAttribute);
  const costUsd = attributes.get(CostAttribute);
  const model = ended ? attributes.get(ModelAttribute) : undefined;
  const origin = originOfMemo(info.memo);
  return {
    ...(iterations !== undefined ? { iterations } : {}),
    ...(tokens !== undefined ? { tokens } : {}),
    ...(costUsd !== undefined ? { costUsd } : {}),
    ...(model ? { model } : {}),
    ...(origin ? { origin } : {}),
    ...(info.closeTime ? { durationMs: Math.max(0, info.closeTime.getTime() - info.startTime.getTime()) } : {}),
  };
}
