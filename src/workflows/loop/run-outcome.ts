/**
 * How a run ends, once the loop knows why: its answer becomes the chain's synthesis (with what
 * stands behind it, core/grounding.ts) and the run's outcome. Deterministic, sandbox side.
 */
import type { TerminationReason } from '../../domain';
import { controlToolNames, givenEvidence, judgeAnswer, supportingObservations } from '../core/chain/grounding';
import type { RunContext } from '../core/state/run-context';

/** How a run ended: its termination reason, its answer (partial or not) and, for `error`, what went wrong. */
export interface RunOutcome {
  reason: TerminationReason;
  answer: string;
  error?: string;
  /** The answer's confidence, 0–1, when the model gave one. */
  confidence?: number;
  /** The answer's value, checked against the run's output schema. */
  output?: unknown;
}

/** The answer becomes the chain's synthesis, and the run's outcome. */
export function endRun(
  ctx: RunContext,
  reason: TerminationReason,
  answer: string,
  confidence?: number,
  output?: unknown,
): RunOutcome {
  synthesise(ctx, reason, answer, confidence);
  return {
    reason,
    answer,
    ...(confidence !== undefined ? { confidence } : {}),
    ...(output !== undefined ? { output } : {}),
  };
}

/**
 * The chain's last step: the answer, with what stands behind it (core/grounding.ts). `checked` is
 * the part of the answer whose claims are checked, when not all of it is the model's (a summary
 * the loop wrote around the results it gathered).
 */
export function synthesise(
  ctx: RunContext,
  reason: TerminationReason,
  answer: string,
  confidence?: number,
  checked: string = answer,
): void {
  const { chain, input } = ctx;
  const { grounding, sources, claimCheck } = judgeAnswer(chain.steps, reason, controlToolNames(input), {
    answer: checked,
    given: givenEvidence(input, chain.steps),
  });
  chain.synthesis(
    {
      sources,
      conclusion: answer,
      grounding,
      terminationReason: reason,
      ...(confidence !== undefined ? { confidence } : {}),
      ...(claimCheck ? { claimCheck } : {}),
    },
    { level: input.visibility },
  );
}

/**
 * Ends the run with a summary written without a model. It states no claim of its own: it quotes
 * the supporting observations (cut), so none of it is checked.
 */
export function endWithoutModel(ctx: RunContext, reason: TerminationReason, why: string): RunOutcome {
  const answer = summaryWithoutModel(ctx, why);
  synthesise(ctx, reason, answer, undefined, '');
  return { reason, answer };
}

/** Written without a model, so a failed summary call still leaves the partial results in view. */
export function summaryWithoutModel(ctx: RunContext, why: string): string {
  const { chain, input } = ctx;
  // The results an answer could rest on (core/grounding.ts), not the loop's own bookkeeping.
  const supporting = new Set(supportingObservations(chain.steps, controlToolNames(input)));
  const lines = chain.steps.flatMap((s) =>
    s.type === 'tool_result' && supporting.has(s.stepId)
      ? [`- ${JSON.stringify(s.toolResult.result).slice(0, 300)}`]
      : [],
  );
  return [
    `Stopped after ${ctx.state.iteration} iterations without a final answer. ${why}`,
    'Results gathered so far:',
    ...(lines.length ? lines : ['- (none)']),
  ].join('\n');
}
