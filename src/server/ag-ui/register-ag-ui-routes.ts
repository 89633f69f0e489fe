import type { FastifyInstance } from 'fastify';
import { callerOf, signedDecisionKeys } from '../protocols/protocol-run-input';
import { UpdateRefusedError } from '../../client/errors/update-refused-error';
import { sendThreadTurn, threadWorkflowId } from '../../client/threads/thread-client';
import { ApiError } from '../api-error';
import type { ApiContext } from '../api-route';
import { RunIdParams } from '../api-schemas';
import type { Identity } from '../auth/identity';
import { resumePoint } from '../events/resume-point';
import { answerRun, decideCall, raiseRunBudget } from '../protocols/run-actions';
import { AgUiStreams } from './ag-ui-streams';
import { readAgUiRequest, type AgUiRequest, type InterruptAnswer } from './ag-ui-request';
import type { InterruptRef } from './interrupt-id';

/** Largest AG-UI request body: a stateless front end sends the whole conversation each time. */
export const MAX_AG_UI_BODY_BYTES = 2 * 1024 * 1024;

async function authenticate(ctx: ApiContext, authorization: string | undefined): Promise<Identity> {
  try {
    return await ctx.auth.authenticate(authorization);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError('unauthenticated', 'Send "Authorization: Bearer <token>" with a valid token.');
  }
}

/**
 * The AG-UI endpoints (docs/ag-ui.md):
 * - `GET /v1/runs/:id/ag-ui`: a run's events as AG-UI events, resumable with Last-Event-ID, with
 *   the same authentication, view and lens as /v1/runs/{id}/events.
 * - `POST /v1/ag-ui/:agent`: the stateless front end's endpoint (what @ag-ui/client's HttpAgent
 *   posts). The AG-UI thread is one durable thread workflow of the caller's; the last user
 *   message is a turn (its AG-UI run id the idempotency key); `resume` answers the interrupt the
 *   previous request ended with. Every request streams the turn's run until it ends or waits.
 * Errors before the stream opens are JSON (401, 400, 404, 409); after, a RUN_ERROR event.
 */
export function registerAgUiRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const streams = new AgUiStreams(ctx);

  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>(
    '/v1/runs/:id/ag-ui',
    async (request, reply) => {
      const identity = await authenticate(ctx, request.headers.authorization);
      const params = RunIdParams.safeParse(request.params);
      if (!params.success) throw new ApiError('bad_request', 'Give a run id in the path: /v1/runs/<id>/ag-ui.');
      const after = resumePoint(request.headers['last-event-id'], request.query['after']);
      const view = request.query['view'];
      if (view !== undefined && typeof view !== 'string')
        throw new ApiError('bad_request', 'Give view once: auditor, developer or end_user.');
      const runId = params.data.id;
      await streams.stream(reply, {
        identity,
        workflowId: runId,
        after,
        names: { threadId: runId, runId, workflowId: runId },
        ...(view !== undefined ? { view } : {}),
      });
    },
  );

  app.post<{ Params: { agent: string } }>(
    '/v1/ag-ui/:agent',
    { bodyLimit: MAX_AG_UI_BODY_BYTES },
    async (request, reply) => {
      const identity = await authenticate(ctx, request.headers.authorization);
      const agent = ctx.catalog.get(request.params.agent);
      if (!agent)
        throw new ApiError(
          'not_found',
          `No agent "${String(request.params.agent).slice(0, 64)}" here; the server's catalogue names its agents.`,
        );
      const input = readAgUiRequest(request.body);
      const thread = threadWorkflowId(identity, input.threadId);
      const target =
        input.kind === 'resume'
          ? await resume(ctx, identity, thread, input)
          : await newTurn(ctx, identity, agent.start, input);
      await streams.stream(reply, {
        identity,
        workflowId: target.workflowId,
        after: target.after,
        names: { threadId: input.threadId, runId: input.runId, workflowId: target.workflowId },
      });
    },
  );

  app.addHook('preClose', async () => streams.close());
}

/** Delivers the turn to the caller's thread (update-with-start): its run, streamed from the start. */
async function newTurn(
  ctx: ApiContext,
  identity: Identity,
  start: { agent: string } | { agentName: string },
  input: Extract<AgUiRequest, { kind: 'turn' }>,
): Promise<{ workflowId: string; after: number }> {
  const owner = callerOf(identity);
  const signed = signedDecisionKeys(ctx);
  try {
    const receipt = await sendThreadTurn(
      ctx.agents,
      { threadId: input.threadId, owner, agent: start, allowQuestions: true },
      { turnId: input.runId, text: input.text, by: owner, ...signed },
      { via: identity.via },
    );
    return { workflowId: receipt.runId, after: 0 };
  } catch (err) {
    if (err instanceof UpdateRefusedError) throw new ApiError('conflict', err.message);
    throw err;
  }
}

/** Answers the interrupts (approvals, a question) of the thread's waiting run; streams on from where it stopped. */
async function resume(
  ctx: ApiContext,
  identity: Identity,
  thread: string,
  input: Extract<AgUiRequest, { kind: 'resume' }>,
): Promise<{ workflowId: string; after: number }> {
  const runs = new Set(input.answers.map((a) => a.ref.runId));
  const [runId] = runs;
  // Only the caller's own thread's runs: another thread's interrupt id is as unknown as a made-up one.
  if (runs.size !== 1 || !runId!.startsWith(`${thread}-turn-`))
    throw new ApiError(
      'not_found',
      'The resume answers no interrupt of this thread; send the ids its last run finished with.',
    );
  for (const answer of input.answers) await answerInterrupt(ctx, identity, answer.ref, answer);
  return { workflowId: runId!, after: Math.min(...input.answers.map((a) => a.ref.step)) };
}

function answerInterrupt(
  ctx: ApiContext,
  identity: Identity,
  ref: InterruptRef,
  answer: InterruptAnswer,
): Promise<unknown> {
  if (ref.kind === 'budget') return raiseRunBudget(ctx, identity, ref.runId, answer.raise ?? { stop: true });
  if (ref.kind === 'approval')
    return decideCall(ctx, identity, ref.runId, ref.callId, {
      approved: answer.approved,
      argumentsHash: ref.argumentsHash,
      ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
    });
  return answerRun(ctx, identity, ref.runId, {
    text: answer.text ?? 'The person declined to answer.',
    callId: ref.callId,
  });
}
