import { describe, expect, it } from 'vitest';
import { ContinuedState, messageHash, wholeHash, type ModelMessage } from '../../../../src/domain';
import { RunState } from '../../../../src/workflows/core/state/run-state';
import { SentConversations } from '../../../../src/workflows/core/state/sent-conversations';
import { carryOver, withSentConversation } from '../../../../src/workflows/run/handover/carry-over';
import { testChainBuilder } from '../../../helpers/test-chain-builder';

const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const reply = (text: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
/** A copy, as the next Temporal run reads the carried messages from its input. */
const carried = (messages: readonly ModelMessage[]): ModelMessage[] =>
  JSON.parse(JSON.stringify(messages)) as ModelMessage[];

describe('SentConversations across a handover: the next run builds on what the last one sent', () => {
  it('names the conversation last sent that the carried messages start with, and the next run builds on it', () => {
    const before = new SentConversations();
    const messages = [user('task'), reply('thought 1'), user('result 1')];
    before.reference(messages);
    // A side call (a summary) sent after it is not what the carried messages start with.
    before.reference([...messages, user('summarise')]);
    messages.push(reply('thought 2'), user('result 2'));
    const named = before.sentPrefixOf(messages);
    expect(named).toEqual({ messages: 3, hash: wholeHash(messages.slice(0, 3).map(messageHash)) });

    const after = new SentConversations();
    const restored = carried(messages);
    expect(after.continueFrom(restored, named!)).toBe(true);
    const first = after.reference(restored);
    expect(first).toMatchObject({
      baseHash: named!.hash,
      parts: [{ from: 0, count: 3 }, { added: restored.slice(3) }],
      count: 5,
    });
    expect(first.hash).toBe(wholeHash(restored.map(messageHash)));
    // A worker that lacks the base asks the run for the whole; the run has it.
    expect(after.find(first.hash)).toEqual(restored);
  });

  it('prefers the longest conversation the carried messages start with', () => {
    const before = new SentConversations();
    const messages = [user('task'), reply('thought 1'), user('result 1')];
    before.reference(messages.slice(0, 1));
    before.reference(messages);
    messages.push(reply('thought 2'));
    expect(before.sentPrefixOf(messages)?.messages).toBe(3);
  });

  it('names nothing when the carried messages start with none sent (compacted, edited, or none sent yet)', () => {
    const before = new SentConversations();
    expect(before.sentPrefixOf([user('task')])).toBeUndefined();
    before.reference([]);
    expect(before.sentPrefixOf([user('task')])).toBeUndefined();
    const messages = [user('task'), reply('thought 1'), user('result 1')];
    before.reference(messages);
    expect(before.sentPrefixOf(messages.slice(0, 2))).toBeUndefined();
    expect(
      before.sentPrefixOf([user('task'), reply('thought 1'), user('[elided]'), reply('thought 2')]),
    ).toBeUndefined();
  });

  it('refuses a named conversation its messages do not hash to, or that reaches past them, and sends the first call whole', () => {
    const messages = [user('task'), reply('thought 1'), user('result 1')];
    const hash = wholeHash(messages.map(messageHash));
    for (const named of [
      { messages: 3, hash: 'f'.repeat(32) },
      { messages: 4, hash },
      { messages: 2, hash },
    ]) {
      const after = new SentConversations();
      expect(after.continueFrom(messages, named)).toBe(false);
      expect(after.reference(messages).parts).toEqual([{ added: messages }]);
    }
  });

  it('carries the name in the handover state, bounded, and reads states carried before it had one', () => {
    const state = new RunState('m', [user('task'), reply('thought 1'), user('result 1')], 1_000);
    const sent = new SentConversations();
    sent.reference(state.messages);
    state.messages.push(reply('thought 2'));
    const plain = carryOver(state, testChainBuilder().snapshot(), [], 'run-1');
    expect(withSentConversation(plain, new SentConversations())).toBe(plain);
    const named = withSentConversation(plain, sent);
    expect(named.sentConversation).toEqual({
      messages: 3,
      hash: wholeHash(state.messages.slice(0, 3).map(messageHash)),
    });
    expect(ContinuedState.parse(JSON.parse(JSON.stringify(named))).sentConversation).toEqual(named.sentConversation);
    expect(ContinuedState.safeParse(plain).success).toBe(true);
    for (const sentConversation of [
      { messages: 0, hash: 'a' },
      { messages: 1.5, hash: 'a' },
      { messages: 3, hash: 'a'.repeat(65) },
      { messages: 3 },
    ]) {
      expect(ContinuedState.safeParse({ ...plain, sentConversation }).success).toBe(false);
    }
  });
});
