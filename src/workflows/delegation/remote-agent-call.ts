import { ActivityCancellationType, isCancellation, type ActivityOptions } from '@temporalio/workflow';
import type { RemoteAwaited } from '../../activities/a2a/a2a-activities';
import {
  FailureType,
  zeroUsage,
  type RemoteAgentRef,
  type RemoteTaskRef,
  type SubAgentRun,
  type SubBudget,
  type ToolUseBlock,
} from '../../domain';
import { activities } from '../activity-proxies';
import { failureMessage, failureType } from '../core/failure-message';
import type { Observation } from '../core/model-exchange';
import type { RunContext } from '../core/state/run-context';
import type { toolStepVisibility } from '../core/chain/tool-visibility';
import { chargeUnknown } from './charge-unknown';
import type { SubAgentTree } from './sub-agent-tree';

/** The longest task a remote agent is sent; a longer one is refused before anything is sent. */
export const MAX_REMOTE_TASK_CHARS = 100_000;

/** A remote call without a time limit of its own follows its task this long at most. */
const DEFAULT_REMOTE_TIMEOUT_MS = 3_600_000;

/**
 * How long the await may go without a heartbeat before Temporal retries it, on another worker if
 * its own died (a worker that shuts down fails it at once): it heartbeats on every poll, at most
 * 30 s apart (activities/a2a/a2a-activities.ts, DEFAULT_POLL_MS), and a retry follows the same task.
 */
const REMOTE_HEARTBEAT_TIMEOUT_MS = 90_000;

/** Failures after which the remote certainly started nothing: refused here, or its answer said no. */
const NOTHING_SENT: ReadonlySet<string> = new Set([
  FailureType.RemoteAgentRefused,
  FailureType.RemoteAgentUnauthorized,
  FailureType.RemoteAgentBadCard,
  FailureType.RemoteAgentFailed,
]);

export interface RemoteCall {
  agentName: string;
  ref: RemoteAgentRef;
  task: string;
  budget: SubBudget;
  visibility: ReturnType<typeof toolStepVisibility>;
  /** The id the call step named (`delegatedTo`); the tree keys the remote run by it. */
  childId: string;
}

/** The send: card and one JSON-RPC request, tried five times; the same message id each time. */
const sendOptions = (agentName: string): ActivityOptions => ({
  summary: `a2a send ${agentName}`.slice(0, 200),
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 5, initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** The await: as long as the call may last; a retry (a dead worker, an unreachable host) follows the same task. */
const awaitOptions = (agentName: string, taskId: string, budget: SubBudget): ActivityOptions => ({
  summary: `a2a await ${agentName} task ${taskId}`.slice(0, 200),
  startToCloseTimeout: budget.runTimeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS,
  heartbeatTimeout: REMOTE_HEARTBEAT_TIMEOUT_MS,
  retry: { maximumAttempts: 10, initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  // Cancelling the run waits for the activity to ask the remote to cancel its task.
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
});

/**
 * Delegates one call to a remote A2A agent, durably, in two activities: the send (a deterministic
 * message id, so a retried send is the same message; its task id lands in history, so a crash
 * afterwards never sends again), then the await, which follows that task until it settles. The
 * remote's reported spend counts like a child's; unknown spend charges the sub-budget. A remote
 * that asks for input ends the call (its task cancelled): the model reads what it asked. The
 * spend comes out of the run's tenant quota as well (the next call's lease counts it).
 */
export async function runRemoteAgentCall(
  ctx: RunContext,
  tree: SubAgentTree,
  call: ToolUseBlock,
  remote: RemoteCall,
): Promise<Observation> {
  const { agentName, ref, task, budget, visibility, childId } = remote;
  const running: SubAgentRun = {
    callId: call.id,
    agentName,
    workflowId: childId,
    status: 'running',
    budget,
    remote: { card: ref.card },
  };
  if (task.length > MAX_REMOTE_TASK_CHARS) {
    const why = `Delegation refused: the task for remote agent ${agentName} is ${task.length} characters; at most ${MAX_REMOTE_TASK_CHARS} are sent. Write a shorter task.`;
    tree.put({ ...running, status: 'refused' });
    ctx.chain.toolResult(
      { correlationId: call.id, success: false, result: null, error: why, durationMs: 0 },
      visibility,
    );
    return { callId: call.id, content: why, isError: true };
  }
  ctx.state.reserve(budget);
  tree.put(running);
  ctx.state.countToolCall();
  ctx.progress.publish();
  const startedAt = Date.now();
  let sentTo: RemoteTaskRef | undefined;
  try {
    const sent = await activities.a2aSend.executeWithOptions(sendOptions(agentName), [
      {
        agent: agentName,
        card: ref.card,
        messageId: `${ctx.workflowId}:${call.id}`,
        text: task,
        maxChars: ctx.input.maxToolResultChars,
      },
    ]);
    let outcome: RemoteAwaited;
    if (sent.kind === 'message') outcome = sent.outcome;
    else {
      sentTo = { card: ref.card, taskId: sent.taskId, contextId: sent.contextId, state: sent.state };
      tree.put({ ...running, remote: sentTo });
      ctx.progress.publish();
      outcome = await activities.a2aAwait.executeWithOptions(awaitOptions(agentName, sent.taskId, budget), [
        { agent: agentName, card: ref.card, taskId: sent.taskId, maxChars: ctx.input.maxToolResultChars },
      ]);
    }
    return settled(
      ctx,
      tree,
      call,
      remote,
      {
        ...running,
        remote: {
          ...(sentTo ?? running.remote!),
          state: outcome.state,
          // Linked, not copied: where the remote's chain is, and a bounded summary of its steps.
          ...(outcome.chain ? { chain: outcome.chain } : {}),
        },
      },
      outcome,
      Date.now() - startedAt,
    );
  } catch (err) {
    const cancelled = isCancellation(err);
    const type = failureType(err);
    // Sent but never heard back, or a send whose answer was lost: its spend is unknown. Refused before or by the remote: nothing ran there.
    const charged = sentTo || !NOTHING_SENT.has(type ?? '') || cancelled ? chargeUnknown(ctx.state, budget, true) : '';
    const refused = type === FailureType.RemoteAgentRefused;
    const error = cancelled
      ? `Remote agent ${agentName} was cancelled with this run before it answered.${charged}`
      : refused
        ? `Delegation refused: ${failureMessage(err)}`
        : `Remote agent ${agentName} failed: ${failureMessage(err)}.${charged} Decide whether to retry, ask another agent, or go on without it.`;
    tree.put({
      ...running,
      ...(sentTo ? { remote: sentTo } : {}),
      status: cancelled ? 'cancelled' : refused ? 'refused' : 'failed',
    });
    if (refused) ctx.chain.note('delegation_blocked', error, { level: 'full' });
    ctx.chain.toolResult(
      {
        correlationId: call.id,
        success: false,
        result: null,
        error,
        durationMs: Date.now() - startedAt,
        ...(cancelled ? { outcome: 'unknown' as const } : {}),
      },
      visibility,
    );
    if (cancelled) throw err;
    return { callId: call.id, content: error, isError: true };
  } finally {
    ctx.state.release(budget);
    tree.ended(childId);
    ctx.progress.publish();
  }
}

/** The remote's answer as the observation; its spend counted when reported, else its sub-budget charged. */
function settled(
  ctx: RunContext,
  tree: SubAgentTree,
  call: ToolUseBlock,
  { agentName, budget, visibility }: RemoteCall,
  running: SubAgentRun,
  outcome: RemoteAwaited,
  durationMs: number,
): Observation {
  const reported = outcome.costUsd !== undefined || outcome.usage !== undefined;
  const usage = outcome.usage ?? zeroUsage();
  const costUsd = outcome.costUsd ?? 0;
  const charged = reported ? '' : chargeUnknown(ctx.state, budget, true);
  // Counted against the tenant's hourly limits too, as a child's own calls are.
  if (reported) ctx.state.countRemoteSpend({ usage, costUsd });
  const success = outcome.state === 'completed';
  const run: SubAgentRun = {
    ...running,
    ...(outcome.runId ? { runId: outcome.runId } : {}),
    ...(outcome.chain && !outcome.chain.refused ? { steps: outcome.chain.totalSteps } : {}),
    status: success ? 'completed' : outcome.state === 'canceled' ? 'cancelled' : 'failed',
    ...(reported ? { usage, costUsd } : {}),
  };
  tree.put(run);
  const asks = outcome.state === 'input-required' || outcome.state === 'auth-required';
  const error = success
    ? undefined
    : asks
      ? `Remote agent ${agentName} stopped to ask for ${outcome.state === 'auth-required' ? 'authentication' : 'input'} this call cannot give: "${outcome.text || '(it did not say what)'}". Its task was ${outcome.remoteCancelled ? 'cancelled' : 'left waiting (it could not be cancelled)'}. Call it again with a task that already answers this, or go on without it.${charged}`
      : `Remote agent ${agentName} did not finish its task (its state: ${outcome.state}).${charged}${outcome.text ? ` What it said: ${outcome.text}` : ' It left no answer.'}`;
  ctx.chain.toolResult(
    {
      correlationId: call.id,
      success,
      result: success ? outcome.text : null,
      durationMs,
      subAgent: run,
      ...(error ? { error } : {}),
    },
    visibility,
  );
  return { callId: call.id, content: error ?? outcome.text, isError: !success };
}
