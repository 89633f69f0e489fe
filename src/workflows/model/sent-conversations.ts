import { nextConversationHash, NO_MESSAGES_HASH, type ConversationRef, type ModelMessage } from '../../shared';

/** Conversations remembered per run: the loop's own and one side call's (a plan, a summary). */
const REMEMBERED = 2;

interface Sent {
  messages: readonly ModelMessage[];
  hashes: readonly string[];
}

/**
 * The conversations this Temporal run sent to the model lately, held in memory (never carried),
 * so the next call can name the longest prefix it shares with one of them instead of sending it
 * again; the worker keeps the same conversations, and asks for the whole (`find`) when it lacks
 * one. A prefix is found by message identity first, then by hash. Pure and deterministic.
 */
export class SentConversations {
  private sent: Sent[] = [];

  /** The reference for a call of `messages`; remembers them as sent. */
  reference(messages: readonly ModelMessage[]): ConversationRef {
    let best: { sent: Sent; count: number } | undefined;
    for (const sent of this.sent) {
      let count = 0;
      while (count < sent.messages.length && count < messages.length && sent.messages[count] === messages[count]) count++;
      if (!best || count > best.count) best = { sent, count };
    }
    const hashes = best ? [...best.sent.hashes.slice(0, best.count)] : [];
    for (let i = hashes.length; i < messages.length; i++) hashes.push(nextConversationHash(hashes[i - 1] ?? NO_MESSAGES_HASH, messages[i]!));
    // Equal messages that are not the same objects (a copy) still share their prefix, by hash.
    let baseCount = best?.count ?? 0;
    for (const sent of this.sent) {
      let count = baseCount;
      while (count < sent.hashes.length && count < hashes.length && sent.hashes[count] === hashes[count]) count++;
      baseCount = Math.max(baseCount, count);
    }
    this.remember({ messages: [...messages], hashes });
    return {
      baseCount,
      baseHash: baseCount > 0 ? hashes[baseCount - 1]! : NO_MESSAGES_HASH,
      added: messages.slice(baseCount),
      count: messages.length,
      hash: hashes.at(-1) ?? NO_MESSAGES_HASH,
    };
  }

  /** The conversation sent whose whole has this hash, for a worker that lacks it; else undefined. */
  find(hash: unknown): ModelMessage[] | undefined {
    if (typeof hash !== 'string') return undefined;
    const sent = this.sent.find((s) => (s.hashes.at(-1) ?? NO_MESSAGES_HASH) === hash);
    return sent ? [...sent.messages] : undefined;
  }

  private remember(sent: Sent): void {
    this.sent = [sent, ...this.sent.filter((s) => s.hashes.at(-1) !== sent.hashes.at(-1))].slice(0, REMEMBERED);
  }
}

