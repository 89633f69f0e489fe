import { ApprovalRecord, type AnswerRequest, type ApprovalDecision } from '../shared';
import { sendUpdate, UpdateRefusedError } from '../client/update-refused-error';
import { answerUpdate, approveToolCallUpdate, cancelSignal, steerSignal } from '../workflows/messages';
import { ApiError } from './api-error';
import { defineRoute, type ApiContext, type ApiRoute } from './api-route';
import {
  AcceptedResponse,
  AnswerBody,
  AnswerResponse,
  ApprovalBody,
  ApprovalParams,
  CancelBody,
  RunIdParams,
  SteerBody,
} from './api-schemas';
import type { Identity } from './auth/identity';
import type { SignedDecisionKind } from './signing/decision-signer';
import { liveRead } from './live-read';
import type { RunFacts } from './run-access';
import { statusInLens } from './policy/apply-lens';

/** The run's own refusal, as a 409 with its words. */
async function refusedAsConflict<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await sendUpdate(send);
  } catch (err) {
    if (err instanceof UpdateRefusedError) throw new ApiError('conflict', err.message);
    throw err;
  }
}

/** Signed by the server's keys when it has them; the run checks the signature when it requires one. */
const signed = <T extends object>(
  ctx: ApiContext,
  kind: SignedDecisionKind,
  workflowId: string,
  payload: T,
  identity: Identity,
): T => (ctx.signer ? ctx.signer.sign(kind, workflowId, payload, identity) : payload);

function requireRunning(facts: RunFacts, what: string): void {
  if (facts.state !== 'running')
    throw new ApiError('conflict', `The run has ended (${facts.state}); it takes no ${what}.`);
}

export const decideApproval = defineRoute({
  method: 'POST',
  url: '/v1/runs/:id/approvals/:callId',
  operationId: 'decideApproval',
  summary: 'Approve or reject a call awaiting approval in the run or its sub-agents, as the authenticated identity',
  params: ApprovalParams,
  body: ApprovalBody,
  response: { status: 200, description: 'The decided approval record', schema: ApprovalRecord },
  errors: [400, 401, 403, 404, 409, 413],
  async handle({ ctx, identity, params, body }) {
    const facts = await ctx.accessRun(identity, params.id);
    requireRunning(facts, 'decisions');
    const view = ctx.viewFor(identity, undefined);
    // The record answered is the one the caller's view (and lens) shows, as GET /v1/runs/{id} shows it.
    const lens = await ctx.lensFor?.(identity, view, facts);
    const live = await liveRead(() => ctx.agents.status(params.id, view), ctx.queryTimeoutMs);
    const pending = statusInLens(live, view, lens).pendingApprovals.filter((record) => record.callId === params.callId);
    if (pending.length === 0)
      throw new ApiError(
        'conflict',
        `No call ${params.callId} awaits a decision in this run: it was decided, timed out or never asked.`,
      );
    if (pending.length > 1)
      throw new ApiError(
        'conflict',
        `Call id ${params.callId} awaits a decision in ${pending.length} runs of this tree; decide it on the sub-agent's own run (${pending.map((r) => r.workflowId ?? params.id).join(', ')}).`,
      );
    const record = pending[0]!;
    if (record.approverRoles.length > 0 && !record.approverRoles.some((role) => identity.roles.includes(role))) {
      throw new ApiError(
        'forbidden',
        `Deciding on ${record.toolName} needs one of the roles ${record.approverRoles.join(', ')}; you have ${identity.roles.join(', ') || 'none'}.`,
      );
    }
    const target = record.workflowId ?? params.id;
    const decision: ApprovalDecision = {
      callId: params.callId,
      approved: body.approved,
      by: { id: identity.id, roles: [...identity.roles] },
      argumentsHash: body.argumentsHash,
      ...(body.reason !== undefined ? { reason: body.reason } : {}),
      // The gate refuses these on any record but an outcome-unknown one.
      ...(body.markDone ? { markDone: true } : {}),
      ...(body.result !== undefined ? { result: body.result } : {}),
    };
    const payload = signed(ctx, 'approval', target, decision, identity);
    const outcome = await refusedAsConflict(() =>
      ctx.agents.getHandle(target).executeUpdate(approveToolCallUpdate, { args: [payload] }),
    );
    // The record as the caller's view showed it, with the outcome's decision fields.
    const { status, decidedAt, decidedBy, note } = outcome;
    return {
      ...record,
      status,
      ...(decidedAt ? { decidedAt } : {}),
      ...(decidedBy ? { decidedBy } : {}),
      ...(note !== undefined ? { note } : {}),
    };
  },
});

export const cancelRunRoute = defineRoute({
  method: 'POST',
  url: '/v1/runs/:id/cancel',
  operationId: 'cancelRun',
  summary: 'Ask the run to stop: the current step finishes, then a summary; the chain names the caller',
  params: RunIdParams,
  body: CancelBody,
  optionalBody: true,
  response: { status: 202, description: 'The cancel signal was sent', schema: AcceptedResponse },
  errors: [400, 401, 404, 409],
  async handle({ ctx, identity, params, body }) {
    const facts = await ctx.accessRun(identity, params.id);
    requireRunning(facts, 'cancel request');
    await ctx.agents
      .getHandle(params.id)
      .signal(cancelSignal, { by: identity.id, ...(body.reason ? { reason: body.reason } : {}) });
    return { accepted: true as const };
  },
});

export const steerRunRoute = defineRoute({
  method: 'POST',
  url: '/v1/runs/:id/steer',
  operationId: 'steerRun',
  summary: "Add an instruction before the agent's next thought, as the caller",
  params: RunIdParams,
  body: SteerBody,
  response: { status: 202, description: 'The instruction was sent', schema: AcceptedResponse },
  errors: [400, 401, 404, 409, 413],
  async handle({ ctx, identity, params, body }) {
    const facts = await ctx.accessRun(identity, params.id);
    requireRunning(facts, 'instructions');
    const payload = signed(ctx, 'steer', params.id, { text: body.text, by: identity.id }, identity);
    await ctx.agents.getHandle(params.id).signal(steerSignal, payload);
    return { accepted: true as const };
  },
});

export const answerRunRoute = defineRoute({
  method: 'POST',
  url: '/v1/runs/:id/answers',
  operationId: 'answerQuestion',
  summary: 'Answer the question the agent asked, as the caller',
  params: RunIdParams,
  body: AnswerBody,
  response: { status: 200, description: 'The answer as the run recorded it', schema: AnswerResponse },
  errors: [400, 401, 404, 409, 413],
  async handle({ ctx, identity, params, body }) {
    const facts = await ctx.accessRun(identity, params.id);
    requireRunning(facts, 'answers');
    const request: AnswerRequest = {
      text: body.text,
      by: identity.id,
      ...(body.callId ? { callId: body.callId } : {}),
    };
    const payload = signed(ctx, 'answer', params.id, request, identity);
    const answer = await refusedAsConflict(() =>
      ctx.agents.getHandle(params.id).executeUpdate(answerUpdate, { args: [payload] }),
    );
    return { answer };
  },
});

export const DECISION_ROUTES: readonly ApiRoute[] = [decideApproval, cancelRunRoute, steerRunRoute, answerRunRoute];
