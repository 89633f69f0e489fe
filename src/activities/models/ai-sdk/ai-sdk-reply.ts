import type { TokenUsage } from '../../../domain';
import type { AiSdkFinishReason, AiSdkUsage } from './ai-sdk-types';

/**
 * The AI SDK's unified finish reason in the vocabulary the loop reads (`end_turn`, `tool_use`,
 * `max_tokens`, `stop_sequence`, `refusal`). `stop` means either the end of the turn or a stop
 * sequence; only the provider's raw reason tells them apart (Anthropic's `stop_sequence`; Chat
 * Completions says `stop` for both). `stop` with tool calls is `tool_use`, as some servers report
 * it so. `interrupted` and `error` never get here: the stream reader fails the call on them.
 */
export function toStopReason(finishReason: AiSdkFinishReason, hasToolCalls: boolean): string {
  switch (finishReason.unified) {
    case 'stop':
      if (hasToolCalls) return 'tool_use';
      return finishReason.raw === 'stop_sequence' ? 'stop_sequence' : 'end_turn';
    case 'tool-calls':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content-filter':
      return 'refusal';
    default:
      return finishReason.raw || finishReason.unified;
  }
}

const count = (value: number | undefined): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;

/**
 * `inputTokens.total` includes cache reads and writes; Thoughtline counts them apart so cost never
 * counts them twice. `noCache` is the provider's own figure when it sends one.
 */
export function toTokenUsage(usage: AiSdkUsage | undefined): TokenUsage {
  const cacheRead = count(usage?.inputTokens.cacheRead);
  const cacheWrite = count(usage?.inputTokens.cacheWrite);
  const noCache = usage?.inputTokens.noCache;
  return {
    inputTokens:
      noCache === undefined ? Math.max(0, count(usage?.inputTokens.total) - cacheRead - cacheWrite) : count(noCache),
    outputTokens: count(usage?.outputTokens.total),
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
}
