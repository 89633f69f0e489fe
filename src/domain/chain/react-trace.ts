import type { ReasoningChain, ReasoningStep } from './chain';
import { answerLabel, claimFaultsText, faultsOf, type ClaimCheck } from './answer-grounding';
import { DEFAULT_FINISH_TOOL } from '../run/constants';
import { observationText } from '../threads/conversation-ref';

/** One Thought → Action → Observation of a chain, in seed 001's shape (its `ReActStep`). */
export interface ReActTraceStep {
  iteration: number;
  /** The thoughts of the iteration (on its first action only); '' when there were none. */
  thought: string;
  /**
   * `tool {"arg":…}`, or for the synthesis its title: `Final Answer` when tool results stand
   * behind a success, else what it is (`Partial answer (max_iterations)`, `Ungrounded summary (stalled)`, …).
   */
  action: string;
  /** The tool's result or error as text; the answer itself on the Final Answer step. */
  observation: string;
  timestamp: string;
  /** The tool and its arguments as called; absent on the answer's step. */
  call?: { tool: string; arguments: Record<string, unknown> };
}

/**
 * The chain read as seed 001's trace: one step per action (tool call or final answer), with the
 * iteration's thought on its first action. Model-call steps, person steps, the loop's own notes
 * (plans, reflections) and the call of the finish tool (the Final Answer stands for it) are left
 * out; the chain itself keeps them.
 */
export function reactTrace(
  chain: Pick<ReasoningChain, 'steps'>,
  finishToolName: string = DEFAULT_FINISH_TOOL,
): ReActTraceStep[] {
  const trace: ReActTraceStep[] = [];
  const results = new Map<string, ReasoningStep>();
  for (const step of chain.steps) if (step.type === 'tool_result') results.set(step.toolResult.correlationId, step);
  let thought: { iteration: number; text: string[] } = { iteration: -1, text: [] };
  const takeThought = (iteration: number): string => {
    const text = thought.iteration === iteration ? thought.text.join('\n') : '';
    thought = { iteration, text: [] };
    return text;
  };
  for (const step of chain.steps) {
    if (step.type === 'thinking' && !step.purpose && !step.fromPerson) {
      if (thought.iteration !== step.iteration) thought = { iteration: step.iteration, text: [] };
      thought.text.push(step.thought);
    } else if (
      step.type === 'tool_call' &&
      step.toolCall.toolType !== 'llm' &&
      step.toolCall.toolType !== 'guardrail' &&
      step.toolCall.toolName !== finishToolName
    ) {
      const result = results.get(step.toolCall.correlationId);
      const observation =
        result?.type !== 'tool_result'
          ? ''
          : result.toolResult.success
            ? observationText(result.toolResult.result)
            : `Error: ${result.toolResult.error ?? 'failed'}`;
      trace.push({
        iteration: step.iteration,
        thought: takeThought(step.iteration),
        action: `${step.toolCall.toolName} ${JSON.stringify(step.toolCall.arguments)}`,
        observation,
        timestamp: step.timestamp,
        call: { tool: step.toolCall.toolName, arguments: step.toolCall.arguments },
      });
    } else if (step.type === 'synthesis') {
      trace.push({
        iteration: step.iteration,
        thought: takeThought(step.iteration),
        action: finalAction(step.synthesis),
        observation: step.synthesis.conclusion,
        timestamp: step.timestamp,
      });
    }
  }
  return trace;
}

/**
 * `Final Answer` for an answer tool results back (or one recorded before answers were judged), else
 * its title, with a partly grounded answer's unsupported claims named.
 */
function finalAction(synthesis: Parameters<typeof answerLabel>[0] & { claimCheck?: ClaimCheck }): string {
  const label = answerLabel(synthesis);
  if (!label || label.kind === 'final') return 'Final Answer';
  const unsupported = claimFaultsText({ grounding: synthesis.grounding, ...faultsOf(synthesis.claimCheck) });
  return unsupported ? `${label.title} (${unsupported})` : label.title;
}
