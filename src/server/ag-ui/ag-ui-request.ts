import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { MAX_TASK_BYTES, utf8Bytes } from '../../domain/run/payload-size';
import { MAX_THREAD_ID_CHARS, MAX_TURN_ID_CHARS } from '../../domain/threads/thread-schemas';
import type { z } from 'zod';
import { ApiError } from '../api-error';
import { RaiseBudgetBody } from '../api-schemas';
import { decodeInterruptId, type InterruptRef } from './interrupt-id';

/** Longest answer to a question or reason for a decision read from a resume entry (characters). */
const MAX_ANSWER_CHARS = 4_000;

/** One interrupt answered by the front end's `resume`. */
export interface InterruptAnswer {
  ref: InterruptRef;
  approved: boolean;
  text?: string;
  reason?: string;
  /** For a paused budget: the raise, or a stop (a cancelled interrupt stops). */
  raise?: z.output<typeof RaiseBudgetBody>;
}

/** What a POST /v1/ag-ui/:agent asks: a new user turn, or answers to the interrupts it was left with. */
export type AgUiRequest =
  | { kind: 'turn'; threadId: string; runId: string; text: string }
  | { kind: 'resume'; threadId: string; runId: string; answers: InterruptAnswer[] };

const bad = (message: string, path: string) => new ApiError('bad_request', message, [{ path: [path], message }]);

/** Reads an AG-UI RunAgentInput (what HttpAgent posts); anything it cannot use is a 400 saying what. */
export function readAgUiRequest(body: unknown): AgUiRequest {
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw bad(
      `Send an AG-UI RunAgentInput (threadId, runId, messages, tools, context): ${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'it does not parse'}.`,
      String(issue?.path[0] ?? 'body'),
    );
  }
  const input = parsed.data;
  if (input.threadId.length === 0 || input.threadId.length > MAX_THREAD_ID_CHARS)
    throw bad(`threadId must be 1–${MAX_THREAD_ID_CHARS} characters.`, 'threadId');
  if (input.runId.length === 0 || input.runId.length > MAX_TURN_ID_CHARS)
    throw bad(`runId must be 1–${MAX_TURN_ID_CHARS} characters.`, 'runId');
  const base = { threadId: input.threadId, runId: input.runId };
  if (input.resume && input.resume.length > 0)
    return { kind: 'resume', ...base, answers: input.resume.map(readAnswer) };

  const last = [...input.messages].reverse().find((m) => m.role === 'user');
  const text = last ? textOf(last.content) : '';
  if (text.trim() === '') throw bad('Send a user message with text (or resume an interrupt).', 'messages');
  if (utf8Bytes(text) > MAX_TASK_BYTES)
    throw bad(`The user message must be at most ${MAX_TASK_BYTES} bytes (UTF-8).`, 'messages');
  return { kind: 'turn', ...base, text };
}

function readAnswer(entry: {
  interruptId: string;
  status: 'resolved' | 'cancelled';
  payload?: unknown;
}): InterruptAnswer {
  const ref = decodeInterruptId(entry.interruptId);
  if (!ref) throw bad('A resume entry names an interrupt this server did not send.', 'resume');
  const payload = entry.payload as Record<string, unknown> | string | boolean | undefined;
  if (ref.kind === 'budget') {
    if (entry.status === 'cancelled') return { ref, approved: false, raise: { stop: true } };
    const raise = RaiseBudgetBody.safeParse(payload);
    if (!raise.success)
      throw bad('Answer a paused budget with { tokens?, costUsd?, iterations?, note? } or { stop: true }.', 'resume');
    return { ref, approved: true, raise: raise.data };
  }
  if (entry.status === 'cancelled')
    return ref.kind === 'approval'
      ? { ref, approved: false, reason: 'Cancelled by the person.' }
      : { ref, approved: false };
  if (ref.kind === 'approval') {
    const approved =
      typeof payload === 'boolean' ? payload : typeof payload === 'object' ? payload?.['approved'] : undefined;
    if (typeof approved !== 'boolean')
      throw bad('Answer an approval with { approved: true | false, reason? }.', 'resume');
    const reason = typeof payload === 'object' ? payload?.['reason'] : undefined;
    return { ref, approved, ...(typeof reason === 'string' ? { reason: reason.slice(0, MAX_ANSWER_CHARS) } : {}) };
  }
  const text = typeof payload === 'string' ? payload : typeof payload === 'object' ? payload?.['text'] : undefined;
  if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_ANSWER_CHARS)
    throw bad(`Answer a question with { text } (1–${MAX_ANSWER_CHARS} characters).`, 'resume');
  return { ref, approved: true, text };
}

/** The text of a message's content: a string, or its text parts joined. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((p): p is { type: 'text'; text: string } => p?.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');
}
