import { messageHash, NO_MESSAGES_HASH, wholeHash, type ConversationPart, type ConversationRef, type ModelMessage } from '../../shared';

/** Conversations remembered per run: the loop's own and one side call's (a plan, a summary). */
const REMEMBERED = 2;

interface Sent {
  messages: readonly ModelMessage[];
  hashes: readonly string[];
  whole: string;
}

/**
 * The conversations this Temporal run sent to the model lately, held in memory (never carried),
 * so the next call names the runs of messages it shares with one of them instead of sending them
 * again, even after compaction dropped turns; the worker keeps the same conversations, and asks
 * for the whole (`find`) when it lacks one. Messages match by their content's hash. Pure and
 * deterministic.
 */
export class SentConversations {
  private sent: Sent[] = [];

  /** The reference for a call of `messages`; remembers them as sent. */
  reference(messages: readonly ModelMessage[]): ConversationRef {
    // Hashed afresh every call, never cached by object: the loop may change a message in place
    // (eliding an old result to fit the context window), and a stale hash would send the old text.
    const hashes = messages.map(messageHash);
    const base = this.bestBase(hashes);
    const parts = base ? partsFrom(hashes, base, messages) : messages.length ? [{ added: [...messages] }] : [];
    const whole = wholeHash(hashes);
    this.sent = [{ messages: [...messages], hashes, whole }, ...this.sent.filter((s) => s.whole !== whole)].slice(0, REMEMBERED);
    return { baseHash: base?.whole ?? NO_MESSAGES_HASH, parts, count: messages.length, hash: whole };
  }

  /** The conversation sent whose whole hash is `hash`, for a worker that lacks it; else undefined. */
  find(hash: unknown): ModelMessage[] | undefined {
    const sent = typeof hash === 'string' ? this.sent.find((s) => s.whole === hash) : undefined;
    return sent ? [...sent.messages] : undefined;
  }

  /** The remembered conversation that has most of these messages. */
  private bestBase(hashes: readonly string[]): Sent | undefined {
    let best: { sent: Sent; shared: number } | undefined;
    for (const sent of this.sent) {
      const known = new Set(sent.hashes);
      const shared = hashes.filter((h) => known.has(h)).length;
      if (shared > 0 && (!best || shared > best.shared)) best = { sent, shared };
    }
    return best?.sent;
  }
}

/** The messages as runs of the base conversation's (where their hashes match in order) and new ones. */
function partsFrom(hashes: readonly string[], base: Sent, messages: readonly ModelMessage[]): ConversationPart[] {
  const firstIndex = new Map<string, number>();
  base.hashes.forEach((h, i) => firstIndex.has(h) || firstIndex.set(h, i));
  const parts: ConversationPart[] = [];
  hashes.forEach((hash, i) => {
    const last = parts.at(-1);
    // Continue a run where the next base message is this one; else start a run, or add it.
    if (last && 'from' in last && base.hashes[last.from + last.count] === hash) return void (last.count += 1);
    const at = firstIndex.get(hash);
    if (at !== undefined) return void parts.push({ from: at, count: 1 });
    if (last && 'added' in last) last.added.push(messages[i]!);
    else parts.push({ added: [messages[i]!] });
  });
  return parts;
}
