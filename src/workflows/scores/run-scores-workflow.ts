import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { FailureType } from '../../domain/run/failure-types';
import { AddRunScoreRequest, RunScoresState } from '../../domain/evaluation/run-scores';
import { readMessage } from '../core/read-message';
import { addRunScoreUpdate, runScoresQuery } from './run-scores-messages';
import {
  addScore,
  emptyRunScoresState,
  idleLeft,
  scoreRefusal,
  scoresView,
  type RunScoresInput,
} from './run-scores-state';

/** Without a score for this long, the scores workflow completes, returning them; the next score starts it again. */
export const DEFAULT_SCORES_IDLE_MS = 30 * 24 * 3_600_000;
/** Scores taken before continuing as new (well under Temporal's 2,000 updates per execution). */
export const DEFAULT_SCORES_CONTINUE_AS_NEW_AFTER = 500;
/** Failure type of carried state that does not parse. */
export const INVALID_RUN_SCORES_STATE = 'InvalidRunScoresState';
/** Failure type of a new score refused because the run has as many as it keeps. */
export const RUN_SCORE_LIMIT_REACHED = 'RunScoreLimitReached';

/**
 * One per scored run (id from `runScoresWorkflowId`): its scores outlive the run, which, closed,
 * can take no message. Started by the first score (update-with-start); completes after `idleMs`
 * without a score, returning them, so it never lives for ever.
 *
 * Temporal actions per score (Temporal Cloud bills these): the first score of an execution costs
 * 3 (workflow start, update, the idle timer); a score to an open execution costs 1 (the update).
 * The idle timer is armed for the whole idle period and re-armed only when it fires, so scores in
 * between add no timer: at most one timer more per score, usually none. Reads: a query (1) while
 * open; none once closed (the client reads the result from history).
 */
export async function runScoresWorkflow(input: RunScoresInput): Promise<RunScoresState> {
  const idleMs = input.idleMs ?? DEFAULT_SCORES_IDLE_MS;
  const handOverAfter = input.continueAsNewAfter ?? DEFAULT_SCORES_CONTINUE_AS_NEW_AFTER;
  const startedAt = Date.now();
  let state = initialState(input);
  let handled = 0;

  const apply = <R>(step: { state: RunScoresState; result: R }): R => {
    handled++;
    state = step.state;
    return step.result;
  };
  // The validator refuses what does not parse and a score past the limit (a refused update never
  // reaches history); the handler checks again, as replay runs it without the validator.
  setHandler(addRunScoreUpdate, (raw) => apply(addScore(state, readScore(state, raw), Date.now())), {
    validator: (raw) => void readScore(state, raw),
  });
  setHandler(runScoresQuery, () => scoresView(state));

  const handOver = () => handled >= handOverAfter || workflowInfo().continueAsNewSuggested;
  for (;;) {
    // Handlers are synchronous; waiting for them keeps the next command's order the same on replay.
    await condition(allHandlersFinished);
    if (handOver()) return continueAsNew<typeof runScoresWorkflow>({ ...input, carried: state });
    const left = idleLeft(state, startedAt, Date.now(), idleMs);
    if (left <= 0) return state;
    // Scores do not wake this wait: the timer runs its course, then the loop measures again.
    await condition(() => handOver() && allHandlersFinished(), left);
  }
}

/** The score in `raw`, or an ApplicationFailure that refuses (in the validator) or fails (in the handler) only this update. */
function readScore(state: RunScoresState, raw: unknown): AddRunScoreRequest {
  const request = readMessage(AddRunScoreRequest, raw);
  if (request === undefined)
    throw ApplicationFailure.nonRetryable(
      'Malformed score: it needs name (up to 64 letters, digits, ".", "_" or "-", starting with a letter), a finite number value, by, and optionally comment (up to 2,000 characters) and source, and nothing else.',
      FailureType.MalformedMessage,
    );
  const refusal = scoreRefusal(state, request);
  if (refusal !== undefined) throw ApplicationFailure.nonRetryable(refusal, RUN_SCORE_LIMIT_REACHED);
  return request;
}

function initialState(input: RunScoresInput): RunScoresState {
  if (input.carried === undefined) return emptyRunScoresState(input.runWorkflowId);
  const parsed = RunScoresState.safeParse(input.carried);
  if (parsed.success) return parsed.data;
  throw ApplicationFailure.nonRetryable(
    `Carried run scores do not parse: ${parsed.error.message}`,
    INVALID_RUN_SCORES_STATE,
  );
}
