import { describe, expect, it } from 'vitest';
import { messageHash, NO_MESSAGES_HASH, wholeHash, type ModelMessage } from '../../../../src/domain';
import { useSha256Hex } from '../../../../src/domain/text/sha256-hex';
import { sha256HexOfText } from '../../../../src/domain/text/sha256-words';
import { SentConversations } from '../../../../src/workflows/core/state/sent-conversations';

const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const reply = (text: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });

/** The whole hash as the worker and the audit make it: from every message's hash, from the start. */
const fromScratch = (messages: readonly ModelMessage[]) => wholeHash(messages.map(messageHash));

describe('SentConversations: whole hashes reused from the conversations sent before', () => {
  it('equal the hash made from scratch as a conversation grows, is edited early, loses turns, and alternates with a side call', () => {
    const sent = new SentConversations();
    const messages: ModelMessage[] = [user('task')];
    const check = (conversation: readonly ModelMessage[]) =>
      expect(sent.reference(conversation).hash).toBe(fromScratch(conversation));
    check([]);
    expect(sent.reference([]).hash).toBe(NO_MESSAGES_HASH);
    for (let turn = 1; turn <= 12; turn += 1) {
      messages.push(reply(`thought ${turn}`), user(`result ${turn}`));
      check(messages);
      // A side call (a summary) shares the loop's messages and adds its own question.
      if (turn % 4 === 0) check([...messages, user('summarise')]);
    }
    // Compaction edits an early message in place and drops whole turns.
    messages[2] = user('[elided]');
    check(messages);
    messages.splice(1, 4);
    check(messages);
    messages.push(reply('after compaction'));
    check(messages);
    // A conversation unlike any sent shares nothing.
    check([user('another task'), reply('another answer')]);
  });

  it("hashes a reply once: the loop's own copy of it costs no digest, an edited copy does", () => {
    let digests = 0;
    useSha256Hex((text) => ((digests += 1), sha256HexOfText(text)));
    try {
      const sent = new SentConversations();
      const task = user('task');
      const first = sent.reference([task]);
      sent.replied(first.hash, [{ type: 'text', text: 'thought' }]);
      digests = 0;
      const next = [task, reply('thought')];
      const named = sent.reference(next).hash;
      expect(digests).toBe(0);
      expect(named).toBe(fromScratch(next));
      digests = 0;
      const edited = [task, reply('thought, edited')];
      const renamed = sent.reference(edited).hash;
      expect(digests).toBeGreaterThan(0);
      expect(renamed).toBe(fromScratch(edited));
    } finally {
      useSha256Hex(sha256HexOfText);
    }
  });
});
