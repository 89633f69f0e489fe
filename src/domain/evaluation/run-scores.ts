import { isIdentifierName } from '../text/identifier-name';
import { z } from 'zod';

/*
 * Scores that arrive after a run: an outcome (the ticket was reopened, the user accepted the
 * answer) attached to a run days after it ended. Wire and state schemas, shared by the scores
 * workflow, the client, the server and the audit export. Pure: no I/O, no regex (the workflow
 * sandbox freezes RegExp state), so the workflow bundle preloads it.
 */

/** Distinct (name, by) pairs one run keeps; a new pair past this is refused, replacing one is not. */
export const MAX_SCORES_PER_RUN = 200;
export const MAX_SCORE_NAME_CHARS = 64;
export const MAX_SCORE_COMMENT_CHARS = 2_000;
/** The id of whoever scores, as authentication named them. */
export const MAX_SCORER_ID_CHARS = 200;

/** Letters, digits, `.`, `_` and `-`, starting with a letter, at most 64: reads the same in a flag, a URL and a CSV header. */
export function isScoreName(name: string): boolean {
  return isIdentifierName(name, MAX_SCORE_NAME_CHARS);
}

const NAME_RULE = 'up to 64 letters, digits, ".", "_" or "-", starting with a letter';
export const ScoreName = z.string().refine(isScoreName, `a score name is ${NAME_RULE}`);
/** Where a score came from (`api`, `cli`, `zendesk`): same shape as a name. */
export const ScoreSource = z.string().refine(isScoreName, `a score source is ${NAME_RULE}`);
/** Finite only: zod 4 refuses NaN and ±Infinity. Booleans are sent as 1 (true) and 0 (false). */
export const ScoreValue = z.number();
export const ScoreComment = z.string().max(MAX_SCORE_COMMENT_CHARS);
export const ScorerId = z.string().min(1).max(MAX_SCORER_ID_CHARS);

/** What the `addRunScore` update takes. `by` comes from the caller's authentication, never from a request body. */
export const AddRunScoreRequest = z.strictObject({
  name: ScoreName,
  value: ScoreValue,
  comment: ScoreComment.optional(),
  source: ScoreSource.optional(),
  by: ScorerId,
});
export type AddRunScoreRequest = z.infer<typeof AddRunScoreRequest>;

/** One stored score. `at` is the scores workflow's time when it took the score (ISO 8601). */
export const RunScore = z.object({
  name: z.string(),
  value: z.number(),
  comment: z.string().optional(),
  source: z.string().optional(),
  by: z.string(),
  at: z.string(),
});
export type RunScore = z.infer<typeof RunScore>;

/** What `addRunScore` answers: the stored score, the one it replaced (same name, same person), and the run's count. */
export const AddRunScoreResult = z.object({
  score: RunScore,
  replaced: RunScore.optional(),
  count: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
});
export type AddRunScoreResult = z.infer<typeof AddRunScoreResult>;

/**
 * A run's scores as the scores workflow keeps them, carried through continue-as-new and into a
 * fresh execution after an idle close, and returned as that workflow's result. Oldest first.
 */
export const RunScoresState = z.object({
  schemaVersion: z.literal(1),
  runWorkflowId: z.string(),
  scores: z.array(RunScore).max(MAX_SCORES_PER_RUN),
  /** Workflow time (epoch ms) of the last score taken. */
  lastScoredAt: z.number().optional(),
});
export type RunScoresState = z.infer<typeof RunScoresState>;
