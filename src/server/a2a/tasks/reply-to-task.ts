import type { Message } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { ApiError } from '../../api-error';
import type { ApiContext } from '../../api-route';
import type { Identity } from '../../auth/identity';
import { answerRun, decideCall, raiseRunBudget } from '../../protocols/run-actions';
import { decisionOf, messageText, raiseOf } from './message-input';
import { readRunSnapshot } from './run-snapshot';
import { isTerminal, statusOf } from './task-of-snapshot';

/**
 * A message sent to an input-required task answers what it waits for, with the same access, role
 * and signing checks as the HTTP API's decision routes: an approval takes a decision (see
 * `decisionOf`), a question takes the message's text, a paused budget a raise or a stop (see
 * `raiseOf`). A task that waits for nothing refuses it.
 */
export async function replyToTask(ctx: ApiContext, identity: Identity, runId: string, message: Message): Promise<void> {
  const snapshot = await readRunSnapshot(ctx, identity, runId);
  if (snapshot.state !== 'input-required') {
    const state = statusOf(snapshot).state;
    throw new ApiError(
      'conflict',
      isTerminal(state)
        ? 'The task has ended; it takes no more messages. Send a message without taskId to start another.'
        : 'The task is working and waits for no input now; follow it with SubscribeToTask or GetTask.',
    );
  }
  const { input } = snapshot;
  if (input.kind === 'question') {
    await answerRun(ctx, identity, runId, { text: messageText(message), callId: input.callId });
    return;
  }
  if (input.kind === 'budget') {
    const raise = raiseOf(message);
    if (!raise)
      throw new ApiError(
        'bad_request',
        `The task is paused at its budget (${input.pause.reason}): reply "stop", or a data part {"tokens": N, "costUsd": USD, "iterations": N}.`,
      );
    await raiseRunBudget(ctx, identity, runId, raise);
    return;
  }
  const decision = decisionOf(message);
  if (!decision)
    throw new ApiError(
      'bad_request',
      `The task waits for a decision on ${input.record.toolName}: reply "approve", "reject: <reason>", or a data part {"approved": true|false, "reason": "..."}.`,
    );
  const callId = decision.callId ?? input.record.callId;
  // The call id fixes the arguments; a reply that echoes the hash it saw is checked against them.
  const argumentsHash =
    decision.argumentsHash ??
    snapshot.status.pendingApprovals.find((r) => r.callId === callId)?.argumentsHash ??
    input.record.argumentsHash;
  await decideCall(ctx, identity, runId, callId, {
    approved: decision.approved,
    argumentsHash,
    ...(decision.reason ? { reason: decision.reason } : {}),
  });
}
