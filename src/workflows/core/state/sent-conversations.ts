import {
  chainHash,
  contextText,
  type AssistantBlock,
  MIN_KNOWN_TEXT_CHARS,
  NO_MESSAGES_HASH,
  replyMessage,
  textHash,
  type ConversationPart,
  type ConversationRef,
  type KnownText,
  type ModelContext,
  type ModelMessage,
  type SentConversation,
} from '../../../domain';
import { messageJson } from '../../../domain/model/message-json';

/** Conversations remembered per run: the loop's own and one side call's (a plan, a summary). */
const REMEMBERED = 2;

interface Sent {
  messages: readonly ModelMessage[];
  hashes: readonly string[];
  /** `prefixes[i]`: the whole hash of the first i + 1 messages (the last is `whole`). */
  prefixes: readonly string[];
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
  /** The latest sent conversation with the reply it received (see replied). */
  private reply: Sent | undefined;
  private lastContext: { text: string; hash: string } | undefined;
  /** Hashes of the messages sent, with the JSON each was made from (see hashOf). */
  private readonly hashes = new WeakMap<ModelMessage, { json: string; hash: string }>();
  /** The last hash made, with its JSON: the reply `replied` hashed comes back as the loop's own copy. */
  private lastHashed: { json: string; hash: string } | undefined;
  /** System prompts and tools sent, by hash, the latest last (see context). */
  private readonly contexts = new Map<string, ModelContext>();
  /** Texts tool activities returned lately, in the order they came (see returnedByWorker). */
  private readonly workerTexts = new Set<string>();

  /**
   * Notes a text a tool activity returned whole: the worker that ran it keeps it, so a call may
   * send that tool result without it (a known text), and the history holds it once.
   */
  returnedByWorker(text: string): void {
    if (text.length < MIN_KNOWN_TEXT_CHARS) return;
    this.workerTexts.delete(text);
    this.workerTexts.add(text);
    for (const oldest of this.workerTexts) {
      if (this.workerTexts.size <= MAX_WORKER_TEXTS) break;
      this.workerTexts.delete(oldest);
    }
  }

  /**
   * Notes the tool results of a conversation carried from the run's earlier Temporal run: tool
   * activities returned them there, so the worker likely keeps them, and this run's first call
   * (which sends its conversation whole) names them instead of recording them a third time
   * after the handover's two. A worker that lacks one asks the run.
   */
  carriedOver(messages: readonly ModelMessage[]): void {
    for (const message of messages) {
      if (message.role !== 'user') continue;
      for (const block of message.content)
        if (block.type === 'tool_result' && !block.isError) this.returnedByWorker(block.content);
    }
  }

  /**
   * The longest conversation sent lately that `messages` (what a handover carries) start with,
   * for the next Temporal run's continueFrom; undefined when they start with none.
   */
  sentPrefixOf(messages: readonly ModelMessage[]): SentConversation | undefined {
    let longest: Sent | undefined;
    for (const sent of this.remembered()) {
      const count = sent.messages.length;
      if (count === 0 || count > messages.length || (longest && count <= longest.messages.length)) continue;
      if (sent.hashes.every((hash, i) => this.hashOf(messages[i]!) === hash)) longest = sent;
    }
    return longest && { messages: longest.messages.length, hash: longest.whole };
  }

  /**
   * Remembers the first `sent.messages` of a carried conversation as sent, when they hash to
   * `sent.hash`: the earlier Temporal run sent them, and its worker keeps them for the workflow,
   * so the first call of this run names them instead of sending them whole. A worker that lacks
   * them asks the run (find). True when they matched.
   */
  continueFrom(messages: readonly ModelMessage[], sent: SentConversation): boolean {
    if (sent.messages > messages.length) return false;
    const kept = messages.slice(0, sent.messages);
    const hashes = kept.map((m) => this.hashOf(m));
    const prefixes = this.prefixHashes(hashes);
    const whole = prefixes.at(-1);
    if (whole !== sent.hash) return false;
    this.sent = [{ messages: kept, hashes, prefixes, whole }, ...this.sent].slice(0, REMEMBERED);
    return true;
  }

  /**
   * The reference for a call of `messages`; remembers them as sent. Added tool results whose text
   * a tool activity returned lately go without it, as known texts.
   */
  reference(messages: readonly ModelMessage[]): ConversationRef {
    const hashes = messages.map((m) => this.hashOf(m));
    const base = this.bestBase(hashes);
    const parts = base ? partsFrom(hashes, base, messages) : messages.length ? [{ added: [...messages] }] : [];
    const prefixes = this.prefixHashes(hashes);
    const whole = prefixes.at(-1) ?? NO_MESSAGES_HASH;
    this.sent = [
      { messages: [...messages], hashes, prefixes, whole },
      ...this.sent.filter((s) => s.whole !== whole),
    ].slice(0, REMEMBERED);
    const known = this.workerTexts.size ? leaveOutKnownTexts(parts, this.workerTexts) : [];
    return {
      baseHash: base?.whole ?? NO_MESSAGES_HASH,
      parts,
      count: messages.length,
      hash: whole,
      ...(known.length ? { known } : {}),
    };
  }

  /**
   * Notes the reply a call by reference (the whole hash `sentHash`) received: the worker that made
   * the call keeps that conversation with the reply added (rememberReply), so the next call names
   * the reply instead of recording it again after the call's result. Only the latest is kept;
   * nothing happens for a conversation no longer remembered.
   */
  replied(sentHash: string, content: AssistantBlock[]): void {
    const sent = this.sent.find((s) => s.whole === sentHash);
    if (!sent) return;
    const message = replyMessage(content);
    const hash = this.hashOf(message);
    const whole = chainHash(sent.whole, hash);
    this.reply = {
      messages: [...sent.messages, message],
      hashes: [...sent.hashes, hash],
      prefixes: [...sent.prefixes, whole],
      whole,
    };
  }

  /**
   * The hash a call names its system prompt and tools by, and whether this Temporal run sent
   * them before (then the call goes without them); undefined for a context too short to name.
   */
  context(context: ModelContext): { hash: string; sentBefore: boolean } | undefined {
    const text = contextText(context);
    if (text.length < MIN_KNOWN_TEXT_CHARS) return undefined;
    // The loop sends the same context call after call: its hash is not made again.
    const hash = this.lastContext?.text === text ? this.lastContext.hash : textHash(text);
    this.lastContext = { text, hash };
    const sentBefore = this.contexts.delete(hash);
    this.contexts.set(hash, { system: context.system, tools: context.tools });
    for (const oldest of this.contexts.keys()) {
      if (this.contexts.size <= REMEMBERED_CONTEXTS) break;
      this.contexts.delete(oldest);
    }
    return { hash, sentBefore };
  }

  /**
   * Notes a context the worker holds whole without this run having sent it: the run's first call
   * had the worker describe its registered tools, and that worker kept the system prompt with
   * every tool offered. The next call names it like one sent before; a worker that lacks it asks
   * the run (findContext).
   */
  describedByWorker(context: ModelContext): void {
    this.context(context);
  }

  /** The system prompt and tools sent under `hash`, for a worker that lacks them; else undefined. */
  findContext(hash: unknown): ModelContext | undefined {
    return typeof hash === 'string' ? this.contexts.get(hash) : undefined;
  }

  /** The conversation sent whose whole hash is `hash`, for a worker that lacks it; else undefined. */
  find(hash: unknown): ModelMessage[] | undefined {
    const sent = typeof hash === 'string' ? this.remembered().find((s) => s.whole === hash) : undefined;
    return sent ? [...sent.messages] : undefined;
  }

  /**
   * A message's hash, reused while its JSON is unchanged: the loop may change a message's content
   * (eliding an old result to fit the context window), and messageJson then makes its JSON again;
   * an unchanged message's JSON is the string kept, and its sha256 is not made again.
   */
  private hashOf(message: ModelMessage): string {
    const json = messageJson(message);
    const known = this.hashes.get(message);
    if (known?.json === json) return known.hash;
    // messageHash, without making the JSON twice, nor the hash of the same JSON twice running.
    const hash = this.lastHashed?.json === json ? this.lastHashed.hash : textHash(json);
    this.lastHashed = { json, hash };
    this.hashes.set(message, { json, hash });
    return hash;
  }

  /**
   * The whole hashes of each prefix of a conversation (wholeHash of the first 1, 2, … messages),
   * reusing those of the remembered conversation that starts with the most of the same messages:
   * a conversation that grew by a turn costs a hash or two, not one per message.
   */
  private prefixHashes(hashes: readonly string[]): string[] {
    let reused: readonly string[] = [];
    for (const sent of this.remembered()) {
      let same = 0;
      while (same < hashes.length && same < sent.hashes.length && sent.hashes[same] === hashes[same]) same += 1;
      if (same > reused.length) reused = sent.prefixes.slice(0, same);
    }
    const prefixes = [...reused];
    for (let i = prefixes.length; i < hashes.length; i += 1)
      prefixes.push(chainHash(prefixes[i - 1] ?? NO_MESSAGES_HASH, hashes[i]!));
    return prefixes;
  }

  /** The conversations a call may build on: the latest with its reply first, then those sent. */
  private remembered(): Sent[] {
    return this.reply ? [this.reply, ...this.sent] : this.sent;
  }

  /** The remembered conversation that has most of these messages. */
  private bestBase(hashes: readonly string[]): Sent | undefined {
    let best: { sent: Sent; shared: number } | undefined;
    for (const sent of this.remembered()) {
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

/** Contexts remembered: the loop's, and those of side calls (a plan, a summary, a fallback model's tools). */
const REMEMBERED_CONTEXTS = 4;
/** Texts noted at most: a turn's results are named by the next call; after a handover, the carried conversation's latest. */
const MAX_WORKER_TEXTS = 256;

/** Empties, in `parts`' added messages, the tool results whose text the worker holds; says which. */
function leaveOutKnownTexts(parts: ConversationPart[], workerTexts: ReadonlySet<string>): KnownText[] {
  const known: KnownText[] = [];
  let index = 0;
  for (const part of parts) {
    if ('from' in part) {
      index += part.count;
      continue;
    }
    part.added = part.added.map((message) => {
      const at = index++;
      if (message.role !== 'user') return message;
      const content = message.content.map((block, b) => {
        if (
          block.type !== 'tool_result' ||
          block.content.length < MIN_KNOWN_TEXT_CHARS ||
          !workerTexts.has(block.content)
        )
          return block;
        known.push({ message: at, block: b, hash: textHash(block.content) });
        return { ...block, content: '' };
      });
      return { ...message, content };
    });
  }
  return known;
}
