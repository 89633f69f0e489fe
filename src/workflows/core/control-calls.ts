import type { AgentInput, ToolUseBlock } from '../../shared';
import type { ChainBuilder } from './chain-builder';
import type { Observation } from '../loop/strategies';

/** Records a call that never reached a tool activity (finish, give up, refused, not run) with its outcome. */
export function recordControlCall(
  chain: ChainBuilder,
  input: AgentInput,
  call: ToolUseBlock,
  outcome: { success: boolean; result?: string; error?: string },
): void {
  const visibility = { level: input.visibility };
  chain.toolCall({ toolType: 'custom', toolName: call.name, arguments: call.input, correlationId: call.id }, visibility);
  chain.toolResult({ correlationId: call.id, success: outcome.success, result: outcome.result ?? null, durationMs: 0, ...(outcome.error ? { error: outcome.error } : {}) }, visibility);
}

/** A refused call: shown in the chain, and an error observation the model reads next turn. */
export function refuseCall(chain: ChainBuilder, input: AgentInput, call: ToolUseBlock, observation: string): Observation {
  recordControlCall(chain, input, call, { success: false, error: observation });
  return { callId: call.id, content: observation, isError: true };
}
