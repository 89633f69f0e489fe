/**
 * Calls identical to one that already failed are not run again: the run remembers its failed tool
 * calls (by name and arguments) and answers a repeat with a pointer to that failure. Deterministic,
 * sandbox side.
 */
import type { ToolSpec, ToolUseBlock } from '../../../domain';
import { MAX_FAILED_CALL_ERROR_CHARS } from '../../../domain/run/continued-state';
import type { Observation } from '../../core/model-exchange';
import { cutText } from '../../core/read-message';
import type { RunContext } from '../../core/state/run-context';
import { callKey } from '../../core/stable-hash';
import { withAlternatives } from '../../tools/alternatives';

/** The turn's calls that repeat an earlier failure, by call id, each with the observation it gets instead of running. */
export function earlierFailures(
  ctx: RunContext,
  tools: readonly ToolSpec[],
  calls: readonly ToolUseBlock[],
): Map<string, string> {
  const refused = new Map<string, string>();
  for (const call of calls) {
    const failed = ctx.state.failedCall(callKey(call.name, call.input));
    if (!failed) continue;
    const pointer =
      `Not run: the identical call (${call.name} with the same arguments) already failed at step ${failed.stepNumber}: ${failed.error} ` +
      'Running it again would fail the same way: change the arguments, use another tool, or finish with what you have.';
    const spec = tools.find((t) => t.name === call.name);
    refused.set(call.id, spec ? withAlternatives(spec, pointer) : pointer);
  }
  return refused;
}

/** Remembers the turn's failed tool calls (not those refused above, nor ones cut short), so a repeat points to them. */
export function rememberFailures(
  ctx: RunContext,
  tools: readonly ToolSpec[],
  calls: readonly ToolUseBlock[],
  observations: readonly Observation[],
  refused: ReadonlyMap<string, string>,
): void {
  for (const call of calls) {
    if (refused.has(call.id) || !observations.find((o) => o.callId === call.id)?.isError) continue;
    // Only the worker's tools: an injected tool's refusal (a plan update too early) and a
    // sub-agent's failure depend on the run's state or a model, so the same call may work later.
    const spec = tools.find((t) => t.name === call.name);
    if (!spec || spec.type === 'sub_agent') continue;
    const step = ctx.chain.resultOf(call.id);
    if (!step || step.toolResult.outcome !== undefined) continue;
    ctx.state.rememberFailure({
      key: callKey(call.name, call.input),
      stepId: step.stepId,
      stepNumber: step.stepNumber,
      error: cutText(step.toolResult.error ?? 'it failed', MAX_FAILED_CALL_ERROR_CHARS),
    });
  }
}
