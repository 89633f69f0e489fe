import type { AgentInput, AnswerGrounding, ReasoningStep, TerminationReason } from '../../../domain';
import { injectedToolNames } from '../injected-tools';

/** What stands behind a run's answer: the judgement and the observations it rests on. */
export interface JudgedAnswer {
  grounding: AnswerGrounding;
  /** Step ids of the supporting observations, oldest first, each once. */
  sources: string[];
}

/**
 * Which observations an answer can rest on (docs/concepts.md, "Grounded answers"): a
 * `tool_result` that succeeded and came from outside the model. Left out: model calls and `llm`
 * tools' answers (steps with a `model`), calls that were refused, failed, not run or cut short
 * (`success: false`, or an `outcome` other than `done`), the loop's own control tools (`finish`,
 * `give_up`, the plan's update tool, named by `controlTools`) and a sub-agent whose own answer had
 * no tool result behind it. A person's answer to the question tool counts. A cached result
 * counts as the observation it reused (its `cachedFrom`). Pure and deterministic: workflow-safe.
 */
export function supportingObservations(steps: readonly ReasoningStep[], controlTools: ReadonlySet<string>): string[] {
  const toolOf = new Map<string, string>();
  for (const s of steps) if (s.type === 'tool_call') toolOf.set(s.toolCall.correlationId, s.toolCall.toolName);
  const sources = new Set<string>();
  for (const s of steps) {
    if (s.type !== 'tool_result' || s.model !== undefined) continue;
    const r = s.toolResult;
    if (!r.success || (r.outcome !== undefined && r.outcome !== 'done')) continue;
    const tool = toolOf.get(r.correlationId);
    if (tool !== undefined && controlTools.has(tool)) continue;
    if (r.subAgent?.grounding !== undefined && r.subAgent.grounding !== 'grounded') continue;
    sources.add(r.cachedFrom ?? s.stepId);
  }
  return [...sources];
}

/**
 * The judgement: `grounded` when at least one observation supports the answer, whatever the
 * ending; otherwise `unsupported` after `success` and `ungrounded` after any other ending. It
 * looks at the chain's records only and cannot tell whether the answer's text agrees with them.
 */
export function judgeAnswer(
  steps: readonly ReasoningStep[],
  reason: TerminationReason,
  controlTools: ReadonlySet<string>,
): JudgedAnswer {
  const sources = supportingObservations(steps, controlTools);
  if (sources.length > 0) return { grounding: 'grounded', sources };
  return { grounding: reason === 'success' ? 'unsupported' : 'ungrounded', sources };
}

/** The injected tools whose results are the loop's own bookkeeping: finish, give up and the plan's update tool. */
export function controlToolNames(input: AgentInput): ReadonlySet<string> {
  return new Set(
    injectedToolNames(input)
      .filter((t) => t.option !== 'questionToolName')
      .map((t) => t.name),
  );
}
