import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import type { ModelMessage, ModelRequest } from './model-wire';

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
}

/** The `callModel` activity's input: the request with its messages whole, or by reference. */
export type ModelCallInput = ModelRequest | (Omit<ModelRequest, 'messages'> & { conversation: ConversationRef });

/** The whole hash of no messages. */
export const NO_MESSAGES_HASH = '';

const digest = (text: string): string => bytesToHex(sha256(utf8ToBytes(text))).slice(0, 32);

/**
 * One message's hash, of its JSON: the same on both sides of a payload (key order survives it),
 * so the workflow and the worker agree on it.
 */
export const messageHash = (message: ModelMessage): string => digest(JSON.stringify(message));

/** A conversation's whole hash, chained over its messages' hashes (cheap once those are known). */
export function wholeHash(messageHashes: readonly string[]): string {
  let hash = NO_MESSAGES_HASH;
  for (const m of messageHashes) hash = digest(`${hash}\n${m}`);
  return hash;
}

/**
 * The messages a reference names, with their hashes, given the earlier conversation it names
 * (undefined when it names none). Throws when a part reaches past that conversation's end.
 */
export function conversationFromParts(ref: ConversationRef, base: { messages: readonly ModelMessage[]; hashes: readonly string[] } | undefined): { messages: ModelMessage[]; hashes: string[] } {
  const messages: ModelMessage[] = [];
  const hashes: string[] = [];
  for (const part of ref.parts) {
    if ('added' in part) {
      for (const message of part.added) messages.push(message), hashes.push(messageHash(message));
      continue;
    }
    if (!base || part.from + part.count > base.messages.length) throw new RangeError(`messages ${part.from}–${part.from + part.count - 1} of an earlier conversation that is not at hand`);
    messages.push(...base.messages.slice(part.from, part.from + part.count));
    hashes.push(...base.hashes.slice(part.from, part.from + part.count));
  }
  return { messages, hashes };
}
