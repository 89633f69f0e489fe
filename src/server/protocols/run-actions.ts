import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AnswerRequest, ApprovalDecision, ApprovalRecord, BudgetPause, BudgetRaise } from '../../domain';
import { sendUpdate, UpdateRefusedError } from '../../client/errors/update-refused-error';
import {
  answerUpdate,
  approveToolCallUpdate,
  cancelSignal,
  raiseBudgetUpdate,
  steerSignal,
} from '../../workflows/messages';
import { ApiError } from '../api-error';
import type { ApiContext } from '../api-route';
import type { AnswerBody, ApprovalBody, RaiseBudgetBody } from '../api-schemas';
import type { Identity } from '../auth/identity';
import type { SignedDecisionKind } from '../signing/decision-signer';
import { liveRead } from '../live-read';
import type { RunFacts } from '../run-access';
import { statusInLens } from '../policy/apply-lens';

/**
 * What a person may do to a run, once for every edge: the HTTP API's decision routes, and the
 * protocol endpoints (A2A, MCP, AG-UI) that answer an approval or a question in their own words.
 * Each checks access, state and roles the same way and signs with the server's keys.
 */

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

/** Approves or rejects one pending call of the run (or of a sub-agent in its tree), as `identity`. */
export async function decideCall(
  ctx: ApiContext,
  identity: Identity,
  runId: string,
  callId: string,
  body: z.output<typeof ApprovalBody>,
): Promise<ApprovalRecord> {
  const facts = await ctx.accessRun(identity, runId);
  requireRunning(facts, 'decisions');
  const view = ctx.viewFor(identity, undefined);
  // The record answered is the one the caller's view (and lens) shows, as GET /v1/runs/{id} shows it.
  const lens = await ctx.lensFor?.(identity, view, facts);
  const live = await liveRead(() => ctx.agents.status(runId, view), ctx.queryTimeoutMs);
  const pending = statusInLens(live, view, lens).pendingApprovals.filter((record) => record.callId === callId);
  if (pending.length === 0)
    throw new ApiError(
      'conflict',
      `No call ${callId} awaits a decision in this run: it was decided, timed out or never asked.`,
    );
  if (pending.length > 1)
    throw new ApiError(
      'conflict',
      `Call id ${callId} awaits a decision in ${pending.length} runs of this tree; decide it on the sub-agent's own run (${pending.map((r) => r.workflowId ?? runId).join(', ')}).`,
    );
  const record = pending[0]!;
  if (record.approverRoles.length > 0 && !record.approverRoles.some((role) => identity.roles.includes(role))) {
    throw new ApiError(
      'forbidden',
      `Deciding on ${record.toolName} needs one of the roles ${record.approverRoles.join(', ')}; you have ${identity.roles.join(', ') || 'none'}.`,
    );
  }
  const target = record.workflowId ?? runId;
  const decision: ApprovalDecision = {
    callId,
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
}

/** Asks the run to stop (the current step finishes, then a summary); the chain names `identity`. */
export async function cancelRun(ctx: ApiContext, identity: Identity, runId: string, reason?: string): Promise<void> {
  const facts = await ctx.accessRun(identity, runId);
  requireRunning(facts, 'cancel request');
  await ctx.agents.getHandle(runId).signal(cancelSignal, { by: identity.id, ...(reason ? { reason } : {}) });
}

/** Adds an instruction before the agent's next thought, as `identity`. */
export async function steerRun(ctx: ApiContext, identity: Identity, runId: string, text: string): Promise<void> {
  const facts = await ctx.accessRun(identity, runId);
  requireRunning(facts, 'instructions');
  // A fresh nonce per signed instruction: the run accepts each signature once (signed-decision.ts).
  const payload = signed(
    ctx,
    'steer',
    runId,
    { text, by: identity.id, ...(ctx.signer ? { nonce: randomUUID() } : {}) },
    identity,
  );
  await ctx.agents.getHandle(runId).signal(steerSignal, payload);
}

/** Answers the question the run asked, as `identity`; the answer as the run recorded it. */
export async function answerRun(
  ctx: ApiContext,
  identity: Identity,
  runId: string,
  body: z.output<typeof AnswerBody>,
): Promise<string> {
  const facts = await ctx.accessRun(identity, runId);
  requireRunning(facts, 'answers');
  // A signed answer names the question it answers; without one in the body, the open question's (one query).
  const callId = body.callId ?? (ctx.signer ? await openQuestionId(ctx, identity, runId) : undefined);
  const request: AnswerRequest = { text: body.text, by: identity.id, ...(callId ? { callId } : {}) };
  const payload = signed(ctx, 'answer', runId, request, identity);
  return refusedAsConflict(() => ctx.agents.getHandle(runId).executeUpdate(answerUpdate, { args: [payload] }));
}

/**
 * Raises the budget the run paused at, or stops it, as `identity`: the pause is read through the
 * caller's view (and lens) first, so a caller without a raiser role is told so (403) before
 * anything is sent; the run checks the amounts again and refuses what it cannot accept (409).
 */
export async function raiseRunBudget(
  ctx: ApiContext,
  identity: Identity,
  runId: string,
  body: z.output<typeof RaiseBudgetBody>,
): Promise<{ outcome: string; pause: BudgetPause }> {
  const facts = await ctx.accessRun(identity, runId);
  requireRunning(facts, 'budget raise');
  const view = ctx.viewFor(identity, undefined);
  const lens = await ctx.lensFor?.(identity, view, facts);
  const live = await liveRead(() => ctx.agents.status(runId, view), ctx.queryTimeoutMs);
  const pause = statusInLens(live, view, lens).budgetPause;
  if (!pause) throw new ApiError('conflict', 'The run is not paused at a budget; nothing to raise.');
  if (pause.raiserRoles.length > 0 && !pause.raiserRoles.some((role) => identity.roles.includes(role))) {
    throw new ApiError(
      'forbidden',
      `Raising this run's budget needs one of the roles ${pause.raiserRoles.join(', ')}; you have ${identity.roles.join(', ') || 'none'}.`,
    );
  }
  // The pause answered is named (and signed): the raise cannot answer the run's next pause.
  const raise: BudgetRaise = { ...body, pauseId: pause.pauseId, by: { id: identity.id, roles: [...identity.roles] } };
  const payload = signed(ctx, 'budget', runId, raise, identity);
  const outcome = await refusedAsConflict(() =>
    ctx.agents.getHandle(runId).executeUpdate(raiseBudgetUpdate, { args: [payload] }),
  );
  return { outcome, pause };
}

/** The call id of the question the run has open, read through the caller's view; 409 when none is. */
async function openQuestionId(ctx: ApiContext, identity: Identity, runId: string): Promise<string> {
  const view = ctx.viewFor(identity, undefined);
  const live = await liveRead(() => ctx.agents.status(runId, view), ctx.queryTimeoutMs);
  const open = live.openQuestion?.callId;
  if (!open) throw new ApiError('conflict', 'This run has no open question.');
  return open;
}
