import type { ClaimCheck, ReasoningStep, VisibilityLevel } from '../../../domain';
import { claimFaultsText } from '../../../domain/chain/answer-grounding';
import { faultLists } from '../../../domain/chain/claim-support';
import { narrowestLevel } from '../../../domain/visibility/narrowest-level';
import { controlToolNames, groundingOf, observationEvidence, type JudgedAnswer } from '../../core/chain/grounding';
import { BudgetExhausted, ModelCallFailed } from '../../core/loop-signals';
import type { RunContext } from '../../core/state/run-context';
import {
  claimJudgePrompt,
  claimJudgeSystem,
  MAX_JUDGED_OBSERVATIONS,
  type JudgedObservation,
} from './claim-judge-prompt';
import { applyClaimVerdicts } from './claim-verdicts';
import { askForVerdict } from './verdict-call';
import { readClaimJudgeReply } from './verdict-reader';

/** Whether the judge is called for `judged`: the run has one, and the answer observations behind it. */
export const judgesClaims = (ctx: RunContext, judged: JudgedAnswer): boolean =>
  ctx.input.grounding?.judge !== undefined && judged.sources.length > 0;

/** Room for the judge's JSON: a line per claim. */
const JUDGE_MAX_TOKENS = 1_024;

/**
 * The claim judge (`grounding.judge`): after an answer with observations behind it, one model
 * call reads the whole answer, every claim the rules found with their verdicts, and the
 * observations, and gives verdicts of its own (claim-verdicts.ts): it may support what the rules
 * could not read (a paraphrase, a conversion, a conclusion), contradict or demote what they
 * passed, and judge statements they missed. A verdict citing a step that is not one of the run's
 * supporting observations is refused and the rules' verdict stands. A failed or unaffordable
 * call, or an unreadable reply, keeps the rules' judgement, and a visible step says so. No call
 * without a judge or an observation. Deterministic given the reply: workflow side.
 */
export async function judgeClaims(ctx: RunContext, judged: JudgedAnswer, answer: string): Promise<JudgedAnswer> {
  const judge = ctx.input.grounding?.judge;
  if (judge === undefined || !judgesClaims(ctx, judged)) return judged;
  const check: ClaimCheck = judged.claimCheck ?? { method: 'rules', claims: [], unsupported: [] };
  const { chain, input } = ctx;
  const observations = judgedObservations(chain.steps, controlToolNames(input));
  const say = (text: string, level: VisibilityLevel = input.visibility) =>
    chain.thinking(`Claim judge (${judge.model}): ${text}`, { level });
  let text: string;
  try {
    text = await askForVerdict(
      ctx,
      claimJudgeSystem(),
      claimJudgePrompt(answer, check.claims, observations),
      'claim judge',
      { ...judge, maxTokens: judge.maxTokens ?? JUDGE_MAX_TOKENS },
    );
  } catch (err) {
    if (!(err instanceof ModelCallFailed) && !(err instanceof BudgetExhausted)) throw err;
    say(`unavailable (${err.message}); the rules' judgement stands.`);
    return judged;
  }
  const read = readClaimJudgeReply(text);
  if (!read.ok) {
    say(`reply unreadable (${read.problem}); the rules' judgement stands.`);
    return judged;
  }
  const { claims, notes, cited } = applyClaimVerdicts(
    answer,
    check.claims,
    read.value.verdicts,
    new Set(observations.map((o) => o.stepId)),
    judge.model,
    (stepId) => stepNumberOf(chain.steps, stepId),
  );
  const faults = faultLists(claims);
  const named = claimFaultsText({ grounding: 'partly_grounded', ...faults });
  if (notes.length === 0) notes.push('no verdict of its own');
  if (named) notes.push(named);
  // The judge's reasons may restate the results it cites: its step shows no wider than they do.
  const level = chain.steps
    .filter((s) => cited.has(s.stepId))
    .reduce<VisibilityLevel>((l, s) => narrowestLevel(l, s.visibility.level) ?? l, input.visibility);
  say(`${notes.join('; ')}.`, level);
  const claimCheck: ClaimCheck = { ...check, method: 'rules+judge', claims, ...faults };
  if (faults.contradicted === undefined) delete claimCheck.contradicted;
  if (faults.unchecked === undefined) delete claimCheck.unchecked;
  return { ...judged, grounding: claims.length === 0 ? 'grounded' : groundingOf({ claims }), claimCheck };
}

/** The run's supporting observations the judge reads, the newest MAX_JUDGED_OBSERVATIONS, each with its tool's name. */
function judgedObservations(steps: readonly ReasoningStep[], controlTools: ReadonlySet<string>): JudgedObservation[] {
  const toolOf = new Map<string, string>();
  const callOfResult = new Map<string, string>();
  for (const s of steps) {
    if (s.type === 'tool_call') toolOf.set(s.toolCall.correlationId, s.toolCall.toolName);
    if (s.type === 'tool_result') callOfResult.set(s.stepId, s.toolResult.correlationId);
  }
  const seen = new Set<string>();
  const observations: JudgedObservation[] = [];
  for (const e of observationEvidence(steps, controlTools)) {
    if (seen.has(e.stepId)) continue;
    seen.add(e.stepId);
    observations.push({
      stepId: e.stepId,
      tool: toolOf.get(callOfResult.get(e.stepId) ?? '') ?? 'tool',
      result: e.value,
    });
  }
  return observations.slice(-MAX_JUDGED_OBSERVATIONS);
}

function stepNumberOf(steps: readonly ReasoningStep[], stepId: string): string {
  const step = steps.find((s) => s.stepId === stepId);
  return step === undefined ? stepId : String(step.stepNumber);
}
