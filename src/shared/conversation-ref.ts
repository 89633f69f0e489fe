import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import type { ModelMessage, ModelRequest } from './model-wire';

/**
 * A model call's conversation by reference: the first `baseCount` messages of a conversation the
 * run sent before (whose chained hash is `baseHash`), then `added`. So a call records only what is
 * new, not the whole conversation again; `count` and `hash` name the whole that results.
 */
export interface ConversationRef {
  baseCount: number;
  baseHash: string;
  added: ModelMessage[];
  count: number;
  hash: string;
}

/** The `callModel` activity's input: the request with its messages whole, or by reference. */
export type ModelCallInput = ModelRequest | (Omit<ModelRequest, 'messages'> & { conversation: ConversationRef });

/** The chained hash of no messages. */
export const NO_MESSAGES_HASH = '';

/**
 * The hash of a conversation one message longer: sha256 of the previous hash and the message's
 * JSON. The JSON is the same on both sides of a payload (key order survives it), so the workflow
 * and the worker agree on every prefix's hash.
 */
export function nextConversationHash(previous: string, message: ModelMessage): string {
  return bytesToHex(sha256(utf8ToBytes(`${previous}\n${JSON.stringify(message)}`))).slice(0, 32);
}

/** Every prefix's chained hash: `[h(m0), h(m0,m1), …]`. */
export function conversationHashes(messages: readonly ModelMessage[]): string[] {
  const hashes: string[] = [];
  let hash = NO_MESSAGES_HASH;
  for (const message of messages) hashes.push((hash = nextConversationHash(hash, message)));
  return hashes;
}
