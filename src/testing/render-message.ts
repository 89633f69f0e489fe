import type { FakeContentBlock, FakeMessageReply } from './fake-replies';
import { newMessageId, newToolUseId } from './fake-message-ids';

/**
 * Wire JSON of a Messages API reply, shaped as @anthropic-ai/sdk 1.x types `Message`.
 * Rendering is separate from transport: the JSON writer sends this object whole, and the SSE
 * writer (`render-stream.ts`) splits the same object into message_start / content_block_* /
 * message_delta / message_stop events.
 */
export interface WireMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: WireContentBlock[];
  stop_reason: string | null;
  stop_sequence: string | null;
  stop_details: null;
  container: null;
  usage: WireUsage;
}

export type WireContentBlock =
  | { type: 'text'; text: string; citations: null }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown>; caller: { type: 'direct' } }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

export interface WireUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number | null;
  cache_read_input_tokens: number | null;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number } | null;
  server_tool_use: null;
  service_tier: 'standard';
}

// Small non-zero defaults so cost and usage code paths see real numbers when a test does not care.
const DEFAULT_USAGE = {
  input_tokens: 10,
  output_tokens: 5,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

function renderBlock(block: FakeContentBlock): WireContentBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text, citations: null };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_use': {
      // Input cut by max_tokens: the fake's choice for a non-streamed reply is an empty object.
      const input = block.inputCutAt === undefined ? block.input : {};
      return { type: 'tool_use', id: block.id ?? newToolUseId(), name: block.name, input, caller: { type: 'direct' } };
    }
  }
}

export function renderMessage(reply: FakeMessageReply, requestModel: string): WireMessage {
  const usage = { ...DEFAULT_USAGE, ...reply.usage };
  return {
    id: newMessageId(),
    type: 'message',
    role: 'assistant',
    model: reply.model ?? requestModel,
    content: reply.content.map(renderBlock),
    stop_reason: reply.stopReason,
    stop_sequence: reply.stopSequence ?? null,
    stop_details: null,
    container: null,
    usage: {
      ...usage,
      cache_creation:
        usage.cache_creation_input_tokens === null
          ? null
          : { ephemeral_5m_input_tokens: usage.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 },
      server_tool_use: null,
      service_tier: 'standard',
    },
  };
}

/** The Anthropic error envelope: `{ type: 'error', error: { type, message }, request_id }`. */
export const renderErrorBody = (errorType: string, message: string, requestId: string) => ({
  type: 'error' as const,
  error: { type: errorType, message },
  request_id: requestId,
});
