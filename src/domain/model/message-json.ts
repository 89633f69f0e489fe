import type { ModelMessage } from './model-wire';

/** A message's JSON, with the content array, blocks and block fields it was made from. */
interface KeptJson {
  content: readonly unknown[];
  /** Each block, then its own fields' values, in order: a block edited in place shows as changed. */
  fields: readonly unknown[][];
  json: string;
}

/**
 * Each message's JSON, made once: a run read its whole conversation as JSON three times on every
 * model call (its size for the context limit and for the budget, and each message's hash), which
 * grew with the conversation. A kept JSON is used only while the message holds the same content
 * array, the same blocks and the same values in each block's own fields, so a block replaced or
 * edited (an old result elided) is made again. A value nested deeper in a block (a tool call's
 * `input`) is not compared: the conversation never edits one in place.
 */
const kept = new WeakMap<ModelMessage, KeptJson>();

/** `JSON.stringify(message)`, made again only when the message's content changed. Pure and sandbox-safe. */
export function messageJson(message: ModelMessage): string {
  const known = kept.get(message);
  if (known && known.content === message.content && sameFields(known.fields, message.content)) return known.json;
  const json = JSON.stringify(message);
  kept.set(message, { content: message.content, fields: message.content.map(fieldsOf), json });
  return json;
}

/** `JSON.stringify(messages).length`: the items' JSON joined by commas in brackets. */
export function messagesJsonLength(messages: readonly ModelMessage[]): number {
  let length = 2 + Math.max(0, messages.length - 1);
  for (const message of messages) length += messageJson(message).length;
  return length;
}

function fieldsOf(block: object): unknown[] {
  const fields: unknown[] = [block];
  for (const key in block) fields.push(key, (block as Record<string, unknown>)[key]);
  return fields;
}

function sameFields(fields: readonly unknown[][], content: readonly object[]): boolean {
  if (fields.length !== content.length) return false;
  for (let i = 0; i < fields.length; i += 1) {
    const was = fields[i]!;
    const block = content[i]!;
    if (was[0] !== block) return false;
    let at = 1;
    for (const key in block) {
      if (was[at] !== key || was[at + 1] !== (block as Record<string, unknown>)[key]) return false;
      at += 2;
    }
    if (at !== was.length) return false;
  }
  return true;
}
