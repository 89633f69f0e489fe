import { randomBytes } from 'node:crypto';
import type { AssistantBlock } from '../../../domain';

/** The content and stop reason of a constrained reply (see tool-reply-schema.ts). */
export interface ReadToolReply {
  content: AssistantBlock[];
  stopReason: 'tool_use' | 'end_turn' | 'max_tokens';
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads what a model wrote under the tool grammar: the thought becomes a text block and the call a
 * tool_use block with a fresh id; an answer becomes the reply's text. Never throws: a reply cut by
 * max tokens (the JSON unfinished) comes back as its raw text with `max_tokens`, so the loop never
 * runs a tool from a partial call, and a reply that is not the shape at all comes back as text.
 */
export function readToolReply(raw: string, cutAtMaxTokens: boolean): ReadToolReply {
  if (cutAtMaxTokens) return { content: textBlocks(raw), stopReason: 'max_tokens' };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { content: textBlocks(raw), stopReason: 'end_turn' };
  }
  if (!isRecord(json)) return { content: textBlocks(raw), stopReason: 'end_turn' };
  const thought = typeof json.thought === 'string' ? json.thought.trim() : '';
  if (typeof json.tool === 'string' && isRecord(json.arguments)) {
    const call: AssistantBlock = { type: 'tool_use', id: newToolCallId(), name: json.tool, input: json.arguments };
    return { content: [...textBlocks(thought), call], stopReason: 'tool_use' };
  }
  if (typeof json.answer === 'string') return { content: textBlocks(json.answer), stopReason: 'end_turn' };
  return { content: textBlocks(raw), stopReason: 'end_turn' };
}

/** How an earlier call is shown back to the model: the very shape it writes under the grammar. */
export function renderToolCall(thought: string, name: string, input: Record<string, unknown>): string {
  return JSON.stringify({ thought, tool: name, arguments: input });
}

const textBlocks = (text: string): AssistantBlock[] => (text === '' ? [] : [{ type: 'text', text }]);

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The model writes no id; the tool_result of the next turn must still name the call. */
function newToolCallId(): string {
  let out = 'call_local_';
  for (const byte of randomBytes(16)) out += BASE62[byte % BASE62.length];
  return out;
}
