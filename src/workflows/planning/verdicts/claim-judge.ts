import type { AnswerClaim, ReasoningStep, VisibilityLevel } from '../../../domain';
import { narrowestLevel } from '../../../domain/visibility/narrowest-level';
import { isSupported } from '../../../domain/chain/claim-support';
import { redactSecretsInText } from '../../../domain/secrets/secret-patterns';
import { controlToolNames, observationEvidence, type JudgedAnswer } from '../../core/chain/grounding';
import { BudgetExhausted, ModelCallFailed } from '../../core/loop-signals';
import type { RunContext } from '../../core/state/run-context';
import {
  claimJudgePrompt,
  claimJudgeSystem,
  MAX_JUDGED_OBSERVATIONS,
  type JudgedObservation,
} from './claim-judge-prompt';
import { askForVerdict } from './verdict-call';
import { readClaimJudgeReply } from './verdict-reader';

/** How much of the judge's reason for one claim the step keeps. */
const MAX_WHY_CHARS = 200;
/** Room for the judge's JSON: a line per claim. */
const JUDGE_MAX_TOKENS = 1_024;

/**
 * The claim judge (`grounding.judge`): when the rules left claims of the answer unsupported, one
 * model call reads them with the observations and may name, per claim, the observation step
 * that supports it (a paraphrase, a conversion, a conclusion drawn from the results). Only
 * unsupported → supported; a step that is not one of the run's supporting observations is
 * refused and the claim stays unsupported. A failed or unaffordable call, or an unreadable reply,
 * keeps the rules' judgement, and a visible step says so. No call without a judge or an
 * unsupported claim. Deterministic given the reply: workflow side.
 */
export async function judgeClaims(ctx: RunContext, judged: JudgedAnswer, answer: string): Promise<JudgedAnswer> {
  const judge = ctx.input.grounding?.judge;
  const check = judged.claimCheck;
  if (judge === undefined || check === undefined || check.unsupported.length === 0) return judged;
  const { chain, input } = ctx;
  const open = check.claims.flatMap((claim, at) => (isSupported(claim) ? [] : [{ claim, at }]));
  const observations = judgedObservations(chain.steps, controlToolNames(input));
  const say = (text: string, level: VisibilityLevel = input.visibility) =>
    chain.thinking(`Claim judge (${judge.model}): ${text}`, { level });
  let text: string;
  try {
    text = await askForVerdict(
      ctx,
      claimJudgeSystem(),
      claimJudgePrompt(
        answer,
        open.map((o) => o.claim),
        observations,
      ),
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
  const observed = new Set(observations.map((o) => o.stepId));
  const claims: AnswerClaim[] = [...check.claims];
  const notes: string[] = [];
  const cited = new Set<string>();
  for (const { claim: n, step, why } of read.value.supported) {
    const target = open[n - 1];
    if (target === undefined) {
      notes.push(`claim ${n} refused: there is no such claim`);
      continue;
    }
    const said = JSON.stringify(target.claim.text);
    if (!observed.has(step)) {
      notes.push(`${said} stays unsupported: "${step.slice(0, 64)}" is not an observation of this run`);
      continue;
    }
    if (isSupported(claims[target.at]!)) continue;
    claims[target.at] = { ...target.claim, supportedBy: step, judgedBy: judge.model.slice(0, 120) };
    const reason = redactSecretsInText(why.trim()).slice(0, MAX_WHY_CHARS);
    notes.push(`${said} rests on step ${stepNumberOf(chain.steps, step)}${reason ? ` (${reason})` : ''}`);
    cited.add(step);
  }
  const unsupported = claims.filter((c) => !isSupported(c)).map((c) => c.text);
  if (unsupported.length > 0) notes.push(`unsupported: ${unsupported.join(', ')}`);
  // The judge's reasons may restate the results it cites: its step shows no wider than they do.
  const level = chain.steps
    .filter((s) => cited.has(s.stepId))
    .reduce<VisibilityLevel>((l, s) => narrowestLevel(l, s.visibility.level) ?? l, input.visibility);
  say(`${notes.join('; ')}.`, level);
  return {
    ...judged,
    grounding: unsupported.length === 0 ? 'grounded' : 'partly_grounded',
    claimCheck: { ...check, method: 'rules+judge', claims, unsupported },
  };
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
