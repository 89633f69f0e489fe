/**
 * How a run ends, once the loop knows why: its answer becomes the chain's synthesis (with what
 * stands behind it, core/grounding.ts) and the run's outcome. Deterministic, sandbox side.
 */
import type { TerminationReason } from '../../domain';
import {
  controlToolNames,
  givenEvidence,
  judgeAnswer,
  supportingObservations,
  type JudgedAnswer,
} from '../core/chain/grounding';
import type { RunContext } from '../core/state/run-context';
import { judgeClaims, judgesClaims } from '../planning/verdicts/claim-judge';

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

/**
 * The answer becomes the chain's synthesis, and the run's outcome: at once, unless a judge model
 * reads the claims first (each await is a promise the SDK takes a stack trace for).
 */
export function endRun(
  ctx: RunContext,
  reason: TerminationReason,
  answer: string,
  confidence?: number,
  output?: unknown,
): RunOutcome | Promise<RunOutcome> {
  const outcome: RunOutcome = {
    reason,
    answer,
    ...(confidence !== undefined ? { confidence } : {}),
    ...(output !== undefined ? { output } : {}),
  };
  const judging = synthesise(ctx, reason, answer, confidence);
  return judging ? judging.then(() => outcome) : outcome;
}

/**
 * The chain's last step: the answer, with what stands behind it (core/grounding.ts), the claims
 * the rules left unsupported read once more by the judge model when `grounding.judge` is set.
 * Recorded at once without a judge call (undefined); else the promise of that call.
 */
export function synthesise(
  ctx: RunContext,
  reason: TerminationReason,
  answer: string,
  confidence?: number,
): Promise<void> | undefined {
  const judged = rulesJudgement(ctx, reason, answer);
  if (!judgesClaims(ctx, judged)) return void recordSynthesis(ctx, reason, answer, judged, confidence);
  return judgeClaims(ctx, judged, answer).then((j) => recordSynthesis(ctx, reason, answer, j, confidence));
}

/** The rules' judgement of `checked`: the part of the answer whose claims are checked. */
function rulesJudgement(ctx: RunContext, reason: TerminationReason, checked: string): JudgedAnswer {
  const { chain, input } = ctx;
  return judgeAnswer(chain.steps, reason, controlToolNames(input), {
    answer: checked,
    given: givenEvidence(input, chain.steps),
  });
}

function recordSynthesis(
  ctx: RunContext,
  reason: TerminationReason,
  answer: string,
  { grounding, sources, claimCheck }: JudgedAnswer,
  confidence?: number,
): void {
  const { chain, input } = ctx;
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
 * the supporting observations (cut), so none of it is checked (and no judge is asked).
 */
export function endWithoutModel(ctx: RunContext, reason: TerminationReason, why: string): RunOutcome {
  const answer = summaryWithoutModel(ctx, why);
  recordSynthesis(ctx, reason, answer, rulesJudgement(ctx, reason, ''));
  return { reason, answer };
}

/**
 * Ends the run with `why` as its answer and its error, and no other text: a guardrail blocked the
 * task or the answer, so nothing the model wrote (nor the tool results it may repeat) is quoted.
 */
export function endBlocked(ctx: RunContext, reason: TerminationReason, why: string): RunOutcome {
  recordSynthesis(ctx, reason, why, rulesJudgement(ctx, reason, ''));
  return { reason, answer: why, error: why };
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
