import { z, ZodError } from 'zod';
import { UnknownRunError } from '../../client/errors/unknown-run-error';
import { UpdateRefusedError } from '../../client/errors/update-refused-error';
import { AddRunScoreResult, RunScore, ScoreComment, ScoreName, ScoreSource } from '../../domain/evaluation/run-scores';
import { ApiError } from '../api-error';
import { defineRoute, type ApiRoute } from '../api-route';
import { RunIdParams } from '../api-schemas';
import { allowedViews } from '../auth/view-policy';
import { badRequest } from '../error-handler';
import { liveRead } from '../live-read';
import { runNotFound } from '../run-access';

/** A score as a client sends it: who gives it (`by`) and when (`at`) come from the token and the clock. */
export const ScoreBody = z.strictObject({
  name: ScoreName,
  /** A finite number; `true` is stored as 1, `false` as 0. */
  value: z.union([z.number(), z.boolean()]),
  comment: ScoreComment.optional(),
  /** Where the score comes from; default `api`. */
  source: ScoreSource.optional(),
});
export const ScoresResponse = z.object({ scores: z.array(RunScore) });

/** Fields the server sets, named as such before the generic unknown-field refusal. */
const SCORE_SERVER_SET = ['by', 'at'] as const;

function refuseServerSet(body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  const present = SCORE_SERVER_SET.filter((field) => Object.hasOwn(body, field));
  if (present.length === 0) return;
  throw new ApiError(
    'bad_request',
    `${present.join(' and ')} ${present.length === 1 ? 'is' : 'are'} set by the server: the scorer from your token, the time from its clock; leave ${present.length === 1 ? 'it' : 'them'} out of the body.`,
    present.map((field) => ({ path: [field], message: 'set by the server' })),
  );
}

/**
 * Who may score a run they can see: roles that read the developer's view (`developer`,
 * `operator`, `auditor`), the people who own an agent's quality; the same rule that guards what
 * end users see of a run. An end user's verdict reaches a run through the app they used, scoring
 * with its own token (docs/serve.md).
 */
export const mayScore = (roles: readonly string[]): boolean => allowedViews(roles).includes('developer');

export const addScoreRoute = defineRoute({
  method: 'POST',
  url: '/v1/runs/:id/scores',
  operationId: 'addRunScore',
  summary:
    'Attach an outcome score to a run, open or ended, as the caller; the same name by the same person replaces their score',
  params: RunIdParams,
  body: ScoreBody,
  precheck: refuseServerSet,
  response: { status: 201, description: 'The score as stored, and the one it replaced', schema: AddRunScoreResult },
  errors: [400, 401, 403, 404, 409, 413, 503],
  async handle({ ctx, identity, params, body }) {
    await ctx.accessRun(identity, params.id);
    if (!mayScore(identity.roles))
      throw new ApiError(
        'forbidden',
        `Scoring a run needs the developer, operator or auditor role; you have ${identity.roles.join(', ') || 'none'}.`,
      );
    // The update waits for a worker: none within the timeout is a 503, and a retry replaces, never doubles.
    return liveRead(async () => {
      try {
        return await ctx.agents.score(params.id, { ...body, source: body.source ?? 'api', by: identity.id });
      } catch (err) {
        if (err instanceof UnknownRunError) throw runNotFound();
        if (err instanceof UpdateRefusedError) throw new ApiError('conflict', err.message);
        if (err instanceof ZodError) throw badRequest(err, 'body');
        throw err;
      }
    }, ctx.queryTimeoutMs);
  },
});

export const listScoresRoute = defineRoute({
  method: 'GET',
  url: '/v1/runs/:id/scores',
  operationId: 'listRunScores',
  summary: "The run's scores, oldest first; anyone who may see the run may read them",
  params: RunIdParams,
  response: { status: 200, description: 'The scores', schema: ScoresResponse },
  errors: [400, 401, 404, 503],
  async handle({ ctx, identity, params }) {
    await ctx.accessRun(identity, params.id);
    return { scores: await liveRead(() => ctx.agents.scores(params.id), ctx.queryTimeoutMs) };
  },
});

export const SCORES_ROUTES: readonly ApiRoute[] = [addScoreRoute, listScoresRoute];
