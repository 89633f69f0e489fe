import { describe, expect, it } from 'vitest';
import type { ModelReply } from '../../../../src/domain';
import { takenCallIds, withUniqueCallIds } from '../../../../src/workflows/model/unique-call-ids';

const reply = (...ids: string[]): ModelReply =>
  ({
    content: [
      { type: 'text', text: 'calling' },
      ...ids.map((id, i) => ({ type: 'tool_use' as const, id, name: 'write_file', input: { n: i } })),
    ],
    stopReason: 'tool_use',
    model: 'm',
    usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0,
    durationMs: 1,
  }) as ModelReply;
const ids = (r: ModelReply) => r.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));

describe('withUniqueCallIds', () => {
  it('leaves a reply whose ids are new alone', () => {
    expect(withUniqueCallIds(reply('a', 'b'), new Set(['c']))).toBeUndefined();
  });

  it('renames repeats within a reply, in order, and keeps each call’s arguments', () => {
    const unique = withUniqueCallIds(reply('a', 'a', 'a'), new Set());
    expect(ids(unique!.reply)).toEqual(['a', 'a#2', 'a#3']);
    expect(unique!.reply.content.flatMap((b) => (b.type === 'tool_use' ? [b.input] : []))).toEqual([
      { n: 0 },
      { n: 1 },
      { n: 2 },
    ]);
    expect(unique!.renamed).toEqual([
      { from: 'a', to: 'a#2' },
      { from: 'a', to: 'a#3' },
    ]);
  });

  it('renames an id an earlier turn used, and skips suffixes already taken', () => {
    const unique = withUniqueCallIds(reply('a', 'b'), new Set(['a', 'a#2']));
    expect(ids(unique!.reply)).toEqual(['a#3', 'b']);
  });

  it('takes the ids of the chain’s tool calls and of the conversation’s tool_use blocks', () => {
    const steps = [{ type: 'tool_call', toolCall: { correlationId: 'from-chain' } }] as never;
    const messages = [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'from-messages', name: 'x', input: {} }] },
    ] as never;
    expect([...takenCallIds(steps, messages)].sort()).toEqual(['from-chain', 'from-messages']);
  });
});
