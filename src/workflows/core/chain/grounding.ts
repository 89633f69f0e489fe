import type { AgentInput, AnswerGrounding, ClaimCheck, ReasoningStep, TerminationReason } from '../../../domain';
import { checkClaims, isSupported, type ClaimEvidence } from '../../../domain/chain/claim-support';
import { injectedToolNames } from '../injected-tools';

/** What stands behind a run's answer: the judgement, the observations it rests on, and its claims' check. */
export interface JudgedAnswer {
  grounding: AnswerGrounding;
  /** Step ids of the supporting observations, oldest first, each once. */
  sources: string[];
  /** Each checkable claim of the answer and what supports it; set when there was an observation and a claim. */
  claimCheck?: ClaimCheck;
}

/**
 * Which observations an answer can rest on (docs/concepts.md, "Grounded answers"): a
 * `tool_result` that succeeded and came from outside the model. Left out: model calls and `llm`
 * tools' answers (steps with a `model`, and any result of an `llm`-type call, a consensus of
 * models included), calls that were refused, failed, not run or cut short (`success: false`, or
 * an `outcome` other than `done`), the loop's own control tools (`finish`, `give_up`, the plan's
 * update tool, named by `controlTools`) and a sub-agent whose own answer had no tool result
 * behind it (a partly grounded one counts, less what it could not support). A person's answer to
 * the question tool counts. A cached result counts as the observation it reused (its
 * `cachedFrom`). Pure and deterministic: workflow-safe.
 */
export function supportingObservations(steps: readonly ReasoningStep[], controlTools: ReadonlySet<string>): string[] {
  return [...new Set(observationEvidence(steps, controlTools).map((e) => e.stepId))];
}

/** The supporting observations with their recorded results, oldest first, as claim evidence. */
export function observationEvidence(
  steps: readonly ReasoningStep[],
  controlTools: ReadonlySet<string>,
): Array<Extract<ClaimEvidence, { stepId: string }>> {
  const callOf = new Map<string, { toolName: string; toolType: string; arguments: unknown }>();
  for (const s of steps) if (s.type === 'tool_call') callOf.set(s.toolCall.correlationId, s.toolCall);
  const evidence: Array<Extract<ClaimEvidence, { stepId: string }>> = [];
  for (const s of steps) {
    if (s.type !== 'tool_result' || s.model !== undefined) continue;
    const r = s.toolResult;
    if (!r.success || (r.outcome !== undefined && r.outcome !== 'done')) continue;
    const call = callOf.get(r.correlationId);
    // A model's reply and a guardrail's verdict are no evidence for the answer.
    if (
      call !== undefined &&
      (controlTools.has(call.toolName) || call.toolType === 'llm' || call.toolType === 'guardrail')
    )
      continue;
    const child = r.subAgent;
    // A child's answer counts when something of its own stands behind it, less its faults.
    if (child?.grounding !== undefined && !['grounded', 'partly_grounded', 'unchecked'].includes(child.grounding))
      continue;
    const about = call === undefined ? [] : argumentStrings(call.arguments);
    evidence.push({
      stepId: r.cachedFrom ?? s.stepId,
      value: r.result,
      ...(about.length > 0 ? { about } : {}),
      ...(child?.unsupportedClaims?.length ? { unsupported: child.unsupportedClaims } : {}),
    });
  }
  return evidence;
}

/** The short strings a call was made with ({"location": "Paris"} → ["Paris"]): what its result is about. */
function argumentStrings(args: unknown): string[] {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return [];
  return Object.values(args)
    .filter((v): v is string => typeof v === 'string' && v.length <= 60)
    .slice(0, 16);
}

/** What the run was given: its task, its context (data and files) and what a person said (steering, answers). */
export function givenEvidence(
  input: Pick<AgentInput, 'task' | 'context'>,
  steps: readonly ReasoningStep[],
): ClaimEvidence[] {
  const given: ClaimEvidence[] = [{ given: 'task', value: input.task }];
  if (input.context?.data) given.push({ given: 'context', value: input.context.data });
  for (const file of input.context?.files ?? []) given.push({ given: 'context', value: file.content });
  for (const s of steps) if (s.type === 'thinking' && s.fromPerson) given.push({ given: 'person', value: s.thought });
  return given;
}

/**
 * The judgement. Without an observation: `unsupported` after `success`, `ungrounded` after any
 * other ending. With one, the answer's claims (`checked`, by default the answer) are compared with
 * the observations and what the run was given (domain/chain/claim-support.ts), whatever the
 * ending and whoever wrote the answer: `contradicted` when an observation says otherwise of any
 * claim, else `partly_grounded` when some have nothing behind them, else `unchecked` when some
 * could not be checked, else `grounded`. Deterministic rules: what they cannot read they name as
 * unchecked; a judge (`grounding.judge`) may then decide it.
 */
export function judgeAnswer(
  steps: readonly ReasoningStep[],
  reason: TerminationReason,
  controlTools: ReadonlySet<string>,
  checked: { answer: string; given: readonly ClaimEvidence[] },
): JudgedAnswer {
  const observed = observationEvidence(steps, controlTools);
  const sources = [...new Set(observed.map((e) => e.stepId))];
  if (sources.length === 0) return { grounding: reason === 'success' ? 'unsupported' : 'ungrounded', sources };
  const claimCheck = checkClaims(checked.answer, [...observed, ...checked.given]);
  if (claimCheck.claims.length === 0) return { grounding: 'grounded', sources };
  return { grounding: groundingOf(claimCheck), sources, claimCheck };
}

/** The grounding a claim check comes to, the worst fault first. */
export function groundingOf(check: Pick<ClaimCheck, 'claims'>): AnswerGrounding {
  if (check.claims.some((c) => c.contradictedBy !== undefined)) return 'contradicted';
  if (check.claims.some((c) => !isSupported(c) && !c.unchecked)) return 'partly_grounded';
  if (check.claims.some((c) => c.unchecked)) return 'unchecked';
  return 'grounded';
}

/** The injected tools whose results are the loop's own bookkeeping: finish, give up and the plan's update tool. */
export function controlToolNames(input: AgentInput): ReadonlySet<string> {
  return new Set(
    injectedToolNames(input)
      .filter((t) => t.option !== 'questionToolName')
      .map((t) => t.name),
  );
}
