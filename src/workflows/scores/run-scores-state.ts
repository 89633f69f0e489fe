import {
  MAX_SCORES_PER_RUN,
  type AddRunScoreRequest,
  type AddRunScoreResult,
  type RunScore,
  type RunScoresState,
} from '../../domain/evaluation/run-scores';
import type { RunScoresView } from './run-scores-messages';

/*
 * The transitions of a run's scores. Pure: every function returns a new state and never reads a
 * clock (`now`, workflow time in epoch ms, is passed in), so replay gives the same state.
 */

export function emptyRunScoresState(runWorkflowId: string): RunScoresState {
  return { schemaVersion: 1, runWorkflowId, scores: [] };
}

interface Step<R> {
  state: RunScoresState;
  result: R;
}

/** The score `request` would replace: the same name from the same person. */
const sameKey = (score: RunScore, request: AddRunScoreRequest): boolean =>
  score.name === request.name && score.by === request.by;

/** Why `request` cannot be taken, or undefined: a new (name, person) past the run's limit. */
export function scoreRefusal(state: RunScoresState, request: AddRunScoreRequest): string | undefined {
  if (state.scores.some((s) => sameKey(s, request)) || state.scores.length < MAX_SCORES_PER_RUN) return undefined;
  return `Run ${state.runWorkflowId} already has ${MAX_SCORES_PER_RUN} scores, the most one run keeps; a new score "${request.name}" by ${request.by} was not added. Scoring an existing name again as the same person replaces that score.`;
}

/**
 * Takes a score: one per name and person, so a person scoring the same name again (the ticket
 * reopened, then closed) replaces their earlier score, and the newest comes last. Callers check
 * `scoreRefusal` first.
 */
export function addScore(state: RunScoresState, request: AddRunScoreRequest, now: number): Step<AddRunScoreResult> {
  const replaced = state.scores.find((s) => sameKey(s, request));
  const score: RunScore = {
    name: request.name,
    value: request.value,
    ...(request.comment !== undefined ? { comment: request.comment } : {}),
    ...(request.source !== undefined ? { source: request.source } : {}),
    by: request.by,
    at: new Date(now).toISOString(),
  };
  const scores = [...state.scores.filter((s) => !sameKey(s, request)), score];
  return {
    state: { ...state, scores, lastScoredAt: now },
    result: { score, ...(replaced ? { replaced } : {}), count: scores.length, limit: MAX_SCORES_PER_RUN },
  };
}

export function scoresView(state: RunScoresState): RunScoresView {
  return { runWorkflowId: state.runWorkflowId, scores: state.scores };
}

/** Milliseconds left before the scores close for idleness: `idleMs` after the later of this execution's start and the last score. */
export function idleLeft(state: RunScoresState, startedAt: number, now: number, idleMs: number): number {
  return Math.max(startedAt, state.lastScoredAt ?? 0) + idleMs - now;
}

/** What starts a run's scores workflow, and what it hands to its next execution. */
export interface RunScoresInput {
  runWorkflowId: string;
  /** Closes after this long without a score, returning the scores; default 30 days. */
  idleMs?: number;
  /** Scores taken before the workflow continues as new; default 500. */
  continueAsNewAfter?: number;
  /** The scores of the previous execution: continue-as-new, or a closed one the client read. */
  carried?: RunScoresState;
}
