import type { ContinuedState, ReasoningChain, ReasoningStep, SteeringInstruction, ToolSpec } from '../../shared';
import type { RunState } from '../core/run-state';

/** Observations longer than this are shortened in the carried chain; the full text stays in the earlier run's history. */
export const CARRIED_RESULT_CHARS = 1_000;
const SHORTENED = /…\[\d+ characters; shortened at continue-as-new, in full in run [^\]]+\]$/;

/** The state a run hands to its next Temporal run (see ContinuedState). */
export function carryOver(
  state: RunState,
  chain: ReasoningChain,
  tools: readonly ToolSpec[],
  runId: string,
  steering: readonly SteeringInstruction[] = [],
): ContinuedState {
  return {
    ...state.carried(runId),
    chain: { ...chain, steps: chain.steps.map((s) => shorten(s, runId)) },
    tools: [...tools],
    steering: [...steering],
  };
}

function shorten(step: ReasoningStep, runId: string): ReasoningStep {
  if (step.type !== 'tool_result' || step.model !== undefined) return step;
  const text = typeof step.toolResult.result === 'string' ? step.toolResult.result : JSON.stringify(step.toolResult.result ?? null);
  // Shortened once already (in an earlier handover): keep the marker that names the right run.
  if (text.length <= CARRIED_RESULT_CHARS || SHORTENED.test(text)) return step;
  const result = `${text.slice(0, CARRIED_RESULT_CHARS)}…[${text.length} characters; shortened at continue-as-new, in full in run ${runId}]`;
  return { ...step, toolResult: { ...step.toolResult, result } };
}
