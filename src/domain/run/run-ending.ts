import { z } from 'zod';
import type { AgentResult } from './agent-result';
import { AnswerGrounding, answerLabel, MAX_CHECKED_CLAIMS, MAX_CLAIM_TEXT_CHARS } from '../chain/answer-grounding';
import { TerminationReason } from './termination';

/**
 * A run's state in every door's words: Temporal's execution status, except that a run whose
 * workflow completed with a failing result reads `failed` (termination `failure` or `error`) or
 * `cancelled`, so a list, a badge and a `--state` filter never call a failed run completed.
 */
export const EndedRunState = z.enum(['completed', 'failed', 'cancelled', 'terminated', 'timed_out']);
export type EndedRunState = z.infer<typeof EndedRunState>;

/** How a door colours an ending: a success, a stop at a limit, a failure, or a person's stop. */
export const EndingTone = z.enum(['ok', 'limit', 'bad', 'stopped']);
export type EndingTone = z.infer<typeof EndingTone>;

/** Most characters of `error` an ending carries; the chain keeps the whole text. */
export const MAX_ENDING_ERROR = 2_000;

/**
 * How a run ended, as every door shows it (status, watch, the viewer, search, `/v1/runs`, the
 * `end` event, A2A, MCP, AG-UI): made by `runEnding` only, from a result already passed through
 * the caller's view (`viewResult`), so no door shows more than its reader may see.
 */
export const RunEnding = z.object({
  state: EndedRunState,
  /** Why it ended; absent when Temporal ended the run without a result (terminated, timed out, a workflow failure). */
  terminationReason: TerminationReason.optional(),
  /** What badges show: the termination reason, or Temporal's word when there is none. */
  label: z.string(),
  tone: EndingTone,
  /** One line for a person: "failed: ModelAuthentication: Could not resolve authentication method". */
  summary: z.string(),
  /** The answer the run gave (final, partial or ungrounded), when it gave one. */
  answer: z.string().optional(),
  /** How views title `answer`: "Final answer", "Partial answer (max_iterations)", … */
  answerTitle: z.string().optional(),
  grounding: AnswerGrounding.optional(),
  /** A partly grounded answer's claims nothing behind it supports ("42 km", "Lyon"). */
  unsupportedClaims: z.array(z.string().max(MAX_CLAIM_TEXT_CHARS)).max(MAX_CHECKED_CLAIMS).optional(),
  /** A contradicted answer's claims an observation says otherwise of ("sunny (Paris)"). */
  contradictedClaims: z.array(z.string().max(MAX_CLAIM_TEXT_CHARS)).max(MAX_CHECKED_CLAIMS).optional(),
  /** The claims nothing could check, of an answer not grounded. */
  uncheckedClaims: z.array(z.string().max(MAX_CLAIM_TEXT_CHARS)).max(MAX_CHECKED_CLAIMS).optional(),
  /** Why it failed, when it did: the result's error, or Temporal's failure message. */
  error: z.string().max(MAX_ENDING_ERROR).optional(),
});
export type RunEnding = z.infer<typeof RunEnding>;

/**
 * What a door knows of an ended run: its (viewed) result; only what Temporal says when there is
 * none; or only its termination reason (a list read from visibility's `ThoughtlineStatus`, a
 * store row, a view that shows a run as its summary), which gives no answer and no error.
 */
export type EndingSource =
  | { result: AgentResult }
  | { execution: 'failed' | 'cancelled' | 'terminated' | 'timed_out'; failure?: string }
  | { terminationReason: TerminationReason };

/** The state a run that ended for `reason` is in: `failed` for failure and error, `cancelled` for cancelled. */
export const endedStateOf = (reason: TerminationReason): EndedRunState =>
  reason === 'cancelled' ? 'cancelled' : reason === 'failure' || reason === 'error' ? 'failed' : 'completed';

const TONES: Readonly<Record<TerminationReason, EndingTone>> = {
  success: 'ok',
  max_iterations: 'limit',
  stalled: 'limit',
  token_budget: 'limit',
  cost_budget: 'limit',
  timeout: 'limit',
  custom: 'limit',
  failure: 'bad',
  error: 'bad',
  cancelled: 'stopped',
};

/** The one ending of a run. Pure and sandbox-safe; the result must already be the caller's view. */
export function runEnding(source: EndingSource): RunEnding {
  if ('execution' in source) return executionEnding(source.execution, source.failure);
  if ('terminationReason' in source) {
    const reason = source.terminationReason;
    return {
      state: endedStateOf(reason),
      terminationReason: reason,
      label: reason,
      tone: TONES[reason],
      summary: reason,
    };
  }
  const result = source.result;
  const reason = result.terminationReason;
  const state = endedStateOf(reason);
  const error = result.error ? clip(result.error) : undefined;
  const answer = result.finalAnswer.trim() === '' ? undefined : result.finalAnswer;
  const title = answer
    ? (answerLabel(result)?.title ?? (result.success ? 'Final answer' : `Answer (${reason})`))
    : undefined;
  // A `failure` is the model saying it cannot: its answer is the reason.
  const why = error ?? (reason === 'failure' ? answer : undefined);
  return {
    state,
    terminationReason: reason,
    label: reason,
    tone: TONES[reason],
    summary: why ? `${reason}: ${oneLine(why)}` : reason,
    ...(answer ? { answer, answerTitle: title } : {}),
    ...(result.grounding ? { grounding: result.grounding } : {}),
    ...(result.unsupportedClaims?.length ? { unsupportedClaims: result.unsupportedClaims } : {}),
    ...(result.contradictedClaims?.length ? { contradictedClaims: result.contradictedClaims } : {}),
    ...(result.uncheckedClaims?.length ? { uncheckedClaims: result.uncheckedClaims } : {}),
    ...(error ? { error } : {}),
  };
}

function executionEnding(execution: 'failed' | 'cancelled' | 'terminated' | 'timed_out', failure?: string): RunEnding {
  const error = failure ? clip(failure) : undefined;
  return {
    state: execution,
    label: execution,
    tone: execution === 'cancelled' || execution === 'terminated' ? 'stopped' : 'bad',
    summary: error ? `${execution}: ${oneLine(error)}` : execution,
    ...(error ? { error } : {}),
  };
}

const clip = (text: string): string =>
  text.length <= MAX_ENDING_ERROR ? text : `${text.slice(0, MAX_ENDING_ERROR - 1)}…`;

/** The first line, at most 200 characters: a summary fits one terminal line. */
function oneLine(text: string): string {
  const first = text.split('\n', 1)[0]!.trim();
  return first.length <= 200 ? first : `${first.slice(0, 199)}…`;
}
