import type Anthropic from '@anthropic-ai/sdk';

/**
 * Prompt-cache breakpoints of the conversation part of an Anthropic request. Pure; no I/O.
 *
 * The API caches the prefix tools → system → messages up to each block carrying `cache_control`,
 * at most 4 per request. The tool list and the system prompt take two (see the mapping); the
 * conversation gets the other two:
 * - the tail: the last cacheable block of the last message, so this call writes the whole prompt
 *   and the next call, which only appends, reads it;
 * - the anchor: the last cacheable block of the message the previous call ended with (the one
 *   before the latest assistant turn), i.e. exactly where the previous call's tail was written.
 *   The API looks for earlier hits only about 20 blocks back from a breakpoint, so without it a
 *   turn that appends many blocks (parallel tool calls and their results) or a changed newest
 *   message would miss the previous prefix and pay to write it again.
 * The API's top-level automatic caching would place only the tail; placing both here keeps the
 * anchor and never lands a breakpoint where the API refuses one (thinking, empty text).
 */

const EPHEMERAL: Anthropic.CacheControlEphemeral = { type: 'ephemeral' };

/** At most this many conversation breakpoints: 4 per request, less the tools' and the system's. */
export const CONVERSATION_BREAKPOINTS = 2;

/** Blocks the API accepts `cache_control` on among those the mapping sends: not thinking, not empty text. */
function cacheable(block: Anthropic.ContentBlockParam): boolean {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false;
  if (block.type === 'text') return block.text !== '';
  return true;
}

/** The positions (message index) of the tail and the anchor, distinct, in conversation order. */
export function breakpointMessages(messages: readonly Anthropic.MessageParam[]): number[] {
  if (messages.length === 0) return [];
  const tail = messages.length - 1;
  let lastAssistant = -1;
  for (let i = tail; i >= 0; i--) {
    if (messages[i]?.role === 'assistant') {
      lastAssistant = i;
      break;
    }
  }
  const anchor = lastAssistant - 1;
  return anchor >= 0 && anchor < tail ? [anchor, tail] : [tail];
}

/**
 * Marks the last cacheable block of each breakpoint message (a message with none is skipped: its
 * prefix is then simply not written). Returns new message objects; the input is not changed.
 */
export function withConversationBreakpoints(messages: readonly Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  const marked = new Set(breakpointMessages(messages));
  return messages.map((message, i) => {
    if (!marked.has(i) || typeof message.content === 'string') return message;
    const content = [...message.content];
    for (let b = content.length - 1; b >= 0; b--) {
      const block = content[b];
      if (block === undefined || !cacheable(block)) continue;
      content[b] = { ...block, cache_control: EPHEMERAL } as Anthropic.ContentBlockParam;
      return { ...message, content } as Anthropic.MessageParam;
    }
    return message;
  });
}
