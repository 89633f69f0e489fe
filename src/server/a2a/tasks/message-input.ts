import type { Message } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import type { z } from 'zod';
import { MAX_TASK_BYTES, utf8Bytes } from '../../../domain/run/payload-size';
import { ApiError } from '../../api-error';
import { RaiseBudgetBody } from '../../api-schemas';

/** Longest message id taken (it keys the run a message starts). */
export const MAX_MESSAGE_ID_CHARS = 256;

/** A person's decision on an approval, read from a reply. */
export interface ReplyDecision {
  approved: boolean;
  reason?: string;
  /** The call decided, when the reply names it (else the one the task waits for). */
  callId?: string;
  /** The arguments hash the reply saw, when it echoes it. */
  argumentsHash?: string;
}

const bad = (message: string): ApiError => new ApiError('bad_request', message);

/** Checks what every message must have: an id (the idempotency key) and at least one text or data part. */
export function checkMessage(message: Message | undefined): Message {
  if (!message) throw bad('params.message is required: a Message with a messageId and text parts.');
  if (!message.messageId || message.messageId.length > MAX_MESSAGE_ID_CHARS)
    throw bad(
      `message.messageId is required, 1 to ${MAX_MESSAGE_ID_CHARS} characters: it makes a retried send idempotent.`,
    );
  if (message.parts.length === 0) throw bad('message.parts is empty: send a text part.');
  for (const part of message.parts) {
    const kind = part.content?.$case;
    if (kind !== 'text' && kind !== 'data')
      throw bad(`Only text and data parts are read; this message has a ${kind ?? 'empty'} part.`);
  }
  return message;
}

/** The message's text parts, joined; data parts as their JSON. Bounded like a run's task. */
export function messageText(message: Message): string {
  const text = message.parts
    .map((part) =>
      part.content?.$case === 'text'
        ? part.content.value
        : part.content?.$case === 'data'
          ? JSON.stringify(part.content.value)
          : '',
    )
    .filter((t) => t !== '')
    .join('\n');
  if (text.trim() === '') throw bad('The message has no text: send a text part with the task.');
  if (utf8Bytes(text) > MAX_TASK_BYTES)
    throw new ApiError(
      'payload_too_large',
      `The message's text is over ${MAX_TASK_BYTES} bytes (UTF-8), a run's limit; put long material in a file the agent reads.`,
    );
  return text;
}

const APPROVE = /^\s*(approve|approved|yes)\s*[.!]?\s*$/i;
const REJECT = /^\s*(reject|rejected|no)\s*(?::\s*([\s\S]*))?$/i;

/**
 * The decision a reply carries: a data part `{ "approved": boolean, "reason"?, "callId"?,
 * "argumentsHash"? }` first, else the text "approve" (or "yes") / "reject: <reason>" (or "no").
 * Undefined when it carries neither: such a reply decides nothing.
 */
export function decisionOf(message: Message): ReplyDecision | undefined {
  for (const part of message.parts) {
    if (part.content?.$case !== 'data') continue;
    const value = part.content.value as Record<string, unknown> | null;
    if (typeof value !== 'object' || value === null || typeof value.approved !== 'boolean') continue;
    const text = (key: string, max: number): string | undefined =>
      typeof value[key] === 'string' && value[key] !== '' ? (value[key] as string).slice(0, max) : undefined;
    const reason = text('reason', 4_000);
    const callId = text('callId', 200);
    const argumentsHash = text('argumentsHash', 200);
    return {
      approved: value.approved,
      ...(reason ? { reason } : {}),
      ...(callId ? { callId } : {}),
      ...(argumentsHash ? { argumentsHash } : {}),
    };
  }
  const text = message.parts
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('\n')
    .trim();
  if (APPROVE.test(text)) return { approved: true };
  const rejected = REJECT.exec(text);
  if (rejected) {
    const reason = rejected[2]?.trim().slice(0, 4_000);
    return { approved: false, ...(reason ? { reason } : {}) };
  }
  return undefined;
}

const STOP = /^\s*(stop|stop it)\s*[.!]?\s*$/i;

/**
 * The raise a reply to a paused budget carries: a data part `{ "tokens"?, "costUsd"?,
 * "iterations"?, "stop"?, "note"? }` read as the HTTP route reads its body, else the text "stop".
 * Undefined when it carries neither; the run checks the amounts against its pause.
 */
export function raiseOf(message: Message): z.output<typeof RaiseBudgetBody> | undefined {
  for (const part of message.parts) {
    if (part.content?.$case !== 'data') continue;
    const parsed = RaiseBudgetBody.safeParse(part.content.value);
    if (parsed.success) return parsed.data;
  }
  const text = message.parts
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('\n')
    .trim();
  return STOP.test(text) ? { stop: true } : undefined;
}
