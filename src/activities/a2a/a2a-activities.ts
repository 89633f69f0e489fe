import { Context } from '@temporalio/activity';
import type { Message, Task } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import type { Client } from '@a2a-js/sdk/client' with { 'resolution-mode': 'import' };
import { FailureType } from '../../domain';
import type { HostResolver } from '../../tools/builtin/http/address-guard';
import type { Redactor } from '../../tools/redact-secrets';
import { a2aAllowList } from './a2a-allow-list';
import { A2aBoundaryError, a2aFailure } from './a2a-failure';
import type { A2aSettings } from './a2a-settings';
import { createGuardedFetch } from './guarded-fetch';
import { connectRemoteAgent } from './remote-agent-client';
import { isSettled, messageOutcome, remoteOutcome, remoteState, type RemoteOutcome } from './remote-task-result';

export interface A2aActivityDeps {
  /** The worker's allow-list and auth; without it every remote agent is refused. */
  settings?: A2aSettings;
  redact: Redactor;
  resolveHost?: HostResolver;
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Waits between two GetTask polls: from `first`, growing by half each poll to `max`, and after
   * `lateAfter` of waiting to `late`. Default 250 ms to 3 s, then (after 2 minutes) to 30 s.
   */
  pollMs?: { first: number; max: number; late: number; lateAfter: number };
}

/** One delegation's message to a remote agent; `messageId` is deterministic, so a retried send is the same message. */
export interface RemoteSendRequest {
  agent: string;
  card: string;
  messageId: string;
  text: string;
  /** Bound of the answer's text when the remote answers at once with a message. */
  maxChars: number;
}

/** What the send recorded: the task to follow, or a direct answer (a remote that keeps no task). */
export type RemoteSent =
  { kind: 'task'; taskId: string; contextId: string; state: string } | { kind: 'message'; outcome: RemoteOutcome };

export interface RemoteAwaitRequest {
  agent: string;
  card: string;
  taskId: string;
  maxChars: number;
}

/** The settled task; `cancelled` when the worker cancelled it (it asked for input this caller cannot give). */
export type RemoteAwaited = RemoteOutcome & { remoteCancelled?: boolean };

/**
 * Every poll heartbeats (the retry of a dead worker's await, and a cancel, ride on heartbeats), and
 * each heartbeat sent is a billable action: a short task is followed closely, a long one at most
 * twice a minute (about 2,900 heartbeats for a day-long remote task). The await's heartbeat
 * timeout (workflows/delegation/remote-agent-call.ts) is longer than the longest wait.
 */
export const DEFAULT_POLL_MS = { first: 250, max: 3_000, late: 30_000, lateAfter: 120_000 } as const;

/** The SDK's `Role.ROLE_USER` (the protocol's proto number). */
const ROLE_USER = 1;

/** The most one CancelTask may take when the await ends without the answer. */
const CANCEL_TIMEOUT_MS = 5_000;

/**
 * The two activities of a remote sub-agent call. `a2aSend` sends the task once, non-blocking, and
 * returns the remote task's id (recorded in history, so a crash afterwards never sends again; a
 * retry of the send itself repeats the same message id, which a Thoughtline server maps to the
 * same run). `a2aAwait` follows that task with GetTask until it settles, heartbeating, so a retry
 * on another worker follows the same task; on cancellation it asks the remote to cancel the task.
 */
export function createA2aActivities(deps: A2aActivityDeps) {
  const allow = a2aAllowList(deps.settings);
  const fetchImpl = createGuardedFetch({
    allow,
    ...(deps.resolveHost ? { resolveHost: deps.resolveHost } : {}),
    ...(deps.env ? { env: deps.env } : {}),
  });
  const poll = deps.pollMs ?? DEFAULT_POLL_MS;
  const connect = async (agent: string, card: string): Promise<Client> => {
    const refusal = allow.cardRefusal(card);
    if (refusal) throw new A2aBoundaryError(FailureType.RemoteAgentRefused, `refused: ${refusal}.`);
    return connectRemoteAgent(card, fetchImpl);
  };
  const failed = (err: unknown, agent: string) => {
    const { cancellationSignal } = Context.current();
    if (cancellationSignal.aborted) return cancellationSignal.reason as unknown;
    return a2aFailure(err, agent, deps.redact);
  };

  return {
    async a2aSend(request: RemoteSendRequest): Promise<RemoteSent> {
      try {
        const client = await connect(request.agent, request.card);
        const result = await client.sendMessage(
          {
            tenant: '',
            message: userMessage(request.messageId, request.text),
            configuration: {
              acceptedOutputModes: ['text/plain', 'application/json'],
              taskPushNotificationConfig: undefined,
              returnImmediately: true,
            },
            metadata: undefined,
          },
          { signal: Context.current().cancellationSignal },
        );
        if (isMessage(result))
          return { kind: 'message', outcome: messageOutcome(result, request.maxChars, deps.redact) };
        return { kind: 'task', taskId: result.id, contextId: result.contextId, state: remoteState(result) };
      } catch (err) {
        throw failed(err, request.agent);
      }
    },

    async a2aAwait(request: RemoteAwaitRequest): Promise<RemoteAwaited> {
      const ctx = Context.current();
      let client: Client | undefined;
      try {
        client = await connect(request.agent, request.card);
        let wait = poll.first;
        const startedAt = Date.now();
        for (let polls = 1; ; polls += 1) {
          const task = await client.getTask(
            { tenant: '', id: request.taskId, historyLength: 0 },
            { signal: ctx.cancellationSignal },
          );
          const state = remoteState(task);
          ctx.heartbeat({ taskId: request.taskId, state, polls });
          if (isSettled(state)) return await settled(client, task, request, deps.redact);
          await ctx.sleep(wait);
          wait = Math.min(Date.now() - startedAt < poll.lateAfter ? poll.max : poll.late, Math.round(wait * 1.5));
        }
      } catch (err) {
        // The run's cancel, or a run that ended without this call, reaches the remote; a worker
        // shutting down (or an attempt timed out) leaves the task for the retry to follow.
        const details = ctx.cancellationDetails;
        if (ctx.cancellationSignal.aborted && client && (details?.cancelRequested || details?.notFound))
          await cancelQuietly(client, request.taskId);
        throw failed(err, request.agent);
      }
    },
  };
}

/** A settled task's outcome; one waiting for input or authentication this caller cannot give is cancelled, so no run waits for it. */
async function settled(
  client: Client,
  task: Task,
  request: RemoteAwaitRequest,
  redact: Redactor,
): Promise<RemoteAwaited> {
  const outcome = remoteOutcome(task, request.maxChars, redact, request.card);
  if (outcome.state !== 'input-required' && outcome.state !== 'auth-required') return outcome;
  return { ...outcome, remoteCancelled: await cancelQuietly(client, request.taskId) };
}

/** Best effort: a remote that cannot cancel (or is gone) leaves its task as it is. */
async function cancelQuietly(client: Client, taskId: string): Promise<boolean> {
  try {
    await client.cancelTask(
      { tenant: '', id: taskId, metadata: undefined },
      { signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS) },
    );
    return true;
  } catch {
    return false;
  }
}

function userMessage(messageId: string, text: string): Message {
  return {
    messageId,
    contextId: '',
    taskId: '',
    role: ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

const isMessage = (result: Message | Task): result is Message => 'messageId' in result && 'role' in result;
