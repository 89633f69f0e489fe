import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelMessage } from '../../../src/domain';
import { messageJson, messagesJsonLength } from '../../../src/domain/model/message-json';

const conversation = (): ModelMessage[] => [
  { role: 'user', content: [{ type: 'text', text: 'Find the 3 largest files, naïvely 🚀' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Listing first.' },
      { type: 'tool_use', id: 'c1', name: 'ls', input: { path: '/tmp', deep: true } },
    ],
  },
  {
    role: 'user',
    content: [{ type: 'tool_result', toolUseId: 'c1', content: 'a 10\nb "20"\n\\c 30', isError: false }],
  },
];

describe('messageJson', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is JSON.stringify of the message and of the conversation, at every length', () => {
    const messages = conversation();
    for (const m of messages) expect(messageJson(m)).toBe(JSON.stringify(m));
    for (let n = 0; n <= messages.length; n += 1)
      expect(messagesJsonLength(messages.slice(0, n))).toBe(JSON.stringify(messages.slice(0, n)).length);
  });

  it('makes a message’s JSON once while its content is the same', () => {
    const [task] = conversation();
    messageJson(task!);
    const stringify = vi.spyOn(JSON, 'stringify');
    messageJson(task!);
    messagesJsonLength([task!, task!]);
    expect(stringify).not.toHaveBeenCalled();
  });

  it('makes it again when a block is added, replaced or the content array is replaced', () => {
    const messages = conversation();
    const [task, , results] = messages;
    messagesJsonLength(messages);
    // As RunState changes a conversation: a user turn gets more text, an old result is elided, the task is rewritten.
    task!.content.push({ type: 'text', text: 'Steering: only under /tmp.' });
    results!.content[0] = { type: 'tool_result', toolUseId: 'c1', content: '[elided]', isError: false };
    expect(messagesJsonLength(messages)).toBe(JSON.stringify(messages).length);
    task!.content = [{ type: 'text', text: 'A shorter task.' }];
    expect(messageJson(task!)).toBe(JSON.stringify(task));
    expect(messagesJsonLength(messages)).toBe(JSON.stringify(messages).length);
  });

  it('makes it again when a block is edited in place: a field changed, added or taken away', () => {
    const [, call, results] = conversation();
    messageJson(results!);
    (results!.content[0] as { content: string }).content = 'elided';
    expect(messageJson(results!)).toBe(JSON.stringify(results));
    messageJson(call!);
    Object.assign(call!.content[0]!, { citations: [] });
    expect(messageJson(call!)).toBe(JSON.stringify(call));
    delete (call!.content[0] as { citations?: unknown }).citations;
    expect(messageJson(call!)).toBe(JSON.stringify(call));
  });
});
