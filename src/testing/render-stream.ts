import type { FakeMessageReply } from './fake-replies';
import { renderMessage, type WireContentBlock, type WireMessage } from './render-message';

/**
 * The SSE events of a streamed Messages reply, in the real API's order: message_start; per block
 * content_block_start (a ping after the first one), its deltas, content_block_stop; then
 * message_delta (stop reason, final output_tokens) and message_stop. Text, thinking and tool
 * input JSON are cut into several deltas, so clients must concatenate them.
 */
export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

// Enough pieces that concatenation bugs show, few enough to keep long replies cheap.
const PIECES = 4;

/** Splits by code point (never inside a surrogate pair) into at most PIECES non-empty parts. */
export function splitIntoChunks(value: string, pieces = PIECES): string[] {
  const points = Array.from(value);
  const size = Math.max(1, Math.ceil(points.length / pieces));
  const chunks: string[] = [];
  for (let i = 0; i < points.length; i += size) chunks.push(points.slice(i, i + size).join(''));
  return chunks;
}

export const sseText = ({ event, data }: SseEvent): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const delta = (index: number, value: Record<string, unknown>): SseEvent => ({
  event: 'content_block_delta',
  data: { type: 'content_block_delta', index, delta: value },
});

/** content_block_start payload: the block with its streamed fields empty. */
function startOf(block: WireContentBlock): Record<string, unknown> {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: '' };
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' };
    case 'redacted_thinking':
      return { ...block };
    case 'tool_use':
      return { ...block, input: {} };
  }
}

function deltasOf(block: WireContentBlock, index: number, inputJson: string | undefined): SseEvent[] {
  switch (block.type) {
    case 'text':
      return splitIntoChunks(block.text).map((text) => delta(index, { type: 'text_delta', text }));
    case 'thinking':
      return [
        ...splitIntoChunks(block.thinking).map((thinking) => delta(index, { type: 'thinking_delta', thinking })),
        delta(index, { type: 'signature_delta', signature: block.signature }),
      ];
    case 'redacted_thinking':
      return [];
    case 'tool_use': {
      // The API opens tool input with an empty partial_json, then sends the JSON in pieces.
      const json = inputJson ?? JSON.stringify(block.input);
      return ['', ...splitIntoChunks(json)].map((partial_json) =>
        delta(index, { type: 'input_json_delta', partial_json }),
      );
    }
  }
}

export function renderStreamEvents(reply: FakeMessageReply, requestModel: string): SseEvent[] {
  const wire: WireMessage = renderMessage(reply, requestModel);
  const { content, stop_reason, stop_sequence, usage, ...head } = wire;
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          ...head,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: Math.min(1, usage.output_tokens) },
        },
      },
    },
  ];
  content.forEach((block, index) => {
    const fake = reply.content[index];
    const cut =
      fake?.type === 'tool_use' && fake.inputCutAt !== undefined
        ? JSON.stringify(fake.input).slice(0, fake.inputCutAt)
        : undefined;
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: startOf(block) },
    });
    if (index === 0) events.push({ event: 'ping', data: { type: 'ping' } });
    events.push(...deltasOf(block, index, cut));
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push(
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason, stop_sequence, stop_details: null },
        usage: { output_tokens: usage.output_tokens },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return events;
}
