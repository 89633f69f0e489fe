import type { AssistantBlock, ModelMessage, ModelRequest, ModelTool } from '../model/model-wire';
import { sha256Hex } from '../text/sha256-hex';

/** A run of messages taken from the earlier conversation, or messages new in this call. */
export type ConversationPart = { from: number; count: number } | { added: ModelMessage[] };

/**
 * A model call's conversation by reference: runs of messages of a conversation the run sent
 * before (the one whose whole hash is `baseHash`) and the messages that are new, in order. So a
 * call records what it adds, even when compaction dropped turns from the middle; `count` and
 * `hash` name the whole that results, for the worker to check.
 */
export interface ConversationRef {
  baseHash: string;
  parts: ConversationPart[];
  count: number;
  hash: string;
  /** Tool results sent without their text (left empty): the worker holds it (see KnownText). */
  known?: KnownText[];
}

/**
 * A tool result in an added message whose `content` was left empty because the text is exactly
 * what a tool activity returned: the worker that ran it keeps the text by hash, so the history
 * records an observation once (as the tool's result), not again in the next model call. `message`
 * counts in the whole conversation, `block` in that message's content.
 */
export interface KnownText {
  message: number;
  block: number;
  hash: string;
}

/**
 * The `callModel` activity's input: the request with its messages whole, or by reference. By
 * reference, `context` (contextHash) names the system prompt and tools: sent with them the
 * first time in a Temporal run, and without them afterwards.
 */
export type ModelCallInput =
  | ModelRequest
  | (Omit<ModelRequest, 'messages'> & { conversation: ConversationRef; context?: string })
  | (Omit<ModelRequest, 'messages' | 'system' | 'tools'> & { conversation: ConversationRef; context: string });

/** What a call's `context` names: its system prompt and tools, the same across most of a run's calls. */
export interface ModelContext {
  system: string;
  tools: ModelTool[];
}

/** The text a context is kept as (and hashed over, with textHash): the same on both sides of a payload. */
export const contextText = (context: ModelContext): string =>
  JSON.stringify({ system: context.system, tools: context.tools });

/**
 * The context a kept text holds, when it is one whose hash is `hash`; else undefined. `verified`:
 * the text comes from a content-addressed store (KnownTexts keeps each text under its own
 * textHash), so hashing it again on every call would only repeat that.
 */
export function readContext(text: string | undefined, hash: string, verified = false): ModelContext | undefined {
  if (text === undefined || (!verified && textHash(text) !== hash)) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<ModelContext>;
    return typeof parsed.system === 'string' && Array.isArray(parsed.tools)
      ? { system: parsed.system, tools: parsed.tools }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The whole hash of no messages. */
export const NO_MESSAGES_HASH = '';

const digest = (text: string): string => sha256Hex(text).slice(0, 32);

/**
 * One message's hash, of its JSON: the same on both sides of a payload (key order survives it),
 * so the workflow and the worker agree on it.
 */
export const messageHash = (message: ModelMessage): string => digest(JSON.stringify(message));

/**
 * The message a reply joins the conversation as. The workflow, the worker that made the call and
 * the audit each build it from the reply's content as received, and hash its JSON: one shape, so
 * they agree (see REPLY_BY_REFERENCE_PATCH).
 */
export const replyMessage = (content: readonly AssistantBlock[]): ModelMessage => ({
  role: 'assistant',
  content: [...content],
});

/** Tool results shorter than this are sent whole: naming one by hash would save little. */
export const MIN_KNOWN_TEXT_CHARS = 256;

/**
 * A tool result's text as the model receives it: a string as it is, anything else as JSON. The
 * workflow and the worker that ran the tool both make it, so they agree on a known text's hash.
 */
export const observationText = (result: unknown): string =>
  typeof result === 'string' ? result : JSON.stringify(result);

/** The hash a known text goes by (KnownText), on both sides. */
export const textHash = (text: string): string => digest(text);

/** The whole hash of a conversation one message longer: `previous` is the whole hash before it. */
export const chainHash = (previous: string, messageHash: string): string => digest(`${previous}\n${messageHash}`);

/** A conversation's whole hash, chained over its messages' hashes (cheap once those are known). */
export function wholeHash(messageHashes: readonly string[]): string {
  let hash = NO_MESSAGES_HASH;
  for (const m of messageHashes) hash = chainHash(hash, m);
  return hash;
}

/** A known text (KnownText) that is not at hand, or whose text does not match its hash. */
export class UnknownTextError extends Error {
  override readonly name = 'UnknownTextError';
}

/** Where a reader finds known texts by hash (the worker's store, or a history's tool results). */
export type TextLookup = (hash: string) => string | undefined;

/**
 * The messages a reference names, with their hashes, given the earlier conversation it names
 * (undefined when it names none) and where its known texts are. Throws a RangeError when a part
 * reaches past that conversation's end, an UnknownTextError when a known text is not at hand.
 */
export function conversationFromParts(
  ref: ConversationRef,
  base: { messages: readonly ModelMessage[]; hashes: readonly string[] } | undefined,
  texts: TextLookup = () => undefined,
): { messages: ModelMessage[]; hashes: string[] } {
  const messages: ModelMessage[] = [];
  const hashes: string[] = [];
  const known = knownByMessage(ref.known);
  for (const part of ref.parts) {
    if ('added' in part) {
      for (const added of part.added) {
        const message = withTexts(added, known.get(messages.length), texts);
        (messages.push(message), hashes.push(messageHash(message)));
      }
      continue;
    }
    if (!base || part.from + part.count > base.messages.length)
      throw new RangeError(
        `messages ${part.from}–${part.from + part.count - 1} of an earlier conversation that is not at hand`,
      );
    messages.push(...base.messages.slice(part.from, part.from + part.count));
    hashes.push(...base.hashes.slice(part.from, part.from + part.count));
  }
  return { messages, hashes };
}

function knownByMessage(known: readonly KnownText[] | undefined): Map<number, KnownText[]> {
  const byMessage = new Map<number, KnownText[]>();
  for (const k of known ?? []) byMessage.set(k.message, [...(byMessage.get(k.message) ?? []), k]);
  return byMessage;
}

/** The message with its known tool results' texts put back. */
function withTexts(message: ModelMessage, known: readonly KnownText[] | undefined, texts: TextLookup): ModelMessage {
  if (!known) return message;
  const content = [...message.content];
  for (const { block, hash } of known) {
    const at = content[block];
    const text = texts(hash);
    if (at?.type !== 'tool_result' || text === undefined || textHash(text) !== hash)
      throw new UnknownTextError(`the text of a tool result (${hash}) is not at hand`);
    content[block] = { ...at, content: text };
  }
  return { ...message, content } as ModelMessage;
}
