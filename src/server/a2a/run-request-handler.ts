import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server' with { 'resolution-mode': 'import' };
import { ApiError } from '../api-error';
import { runNotFound } from '../run-access';
import type { ApiContext } from '../api-route';
import type { Identity } from '../auth/identity';
import type { CatalogAgent } from '../catalog/agent-catalog';
import type { RunStreamHub } from '../events/run-stream-hub';
import { cancelRun } from '../protocols/run-actions';
import { toA2aError } from './a2a-errors';
import type { A2aSdk } from './a2a-sdk';
import { followRun } from './tasks/follow-run';
import { checkMessage, messageText } from './tasks/message-input';
import type { PushNotifications, TaskEvents } from './push/push-notifications';
import { replyToTask } from './tasks/reply-to-task';
import { readRunSnapshot, type RunSnapshot } from './tasks/run-snapshot';
import { startOrFindRun } from './tasks/start-run';
import { contextIdOf, startThreadTurn } from './tasks/thread-context';
import { artifactsOf, isSettled, isTerminal, metadataOf, statusOf, taskOfSnapshot } from './tasks/task-of-snapshot';

/** Who calls and which agent, put in the call's context by the route after authentication. */
export interface A2aCall {
  identity: Identity;
  agent: CatalogAgent;
  /** Fires when the caller disconnects or the server closes. */
  abort: AbortSignal;
}

const CALL_KEY = 'thoughtline.call';

/** The SDK's call context carrying `call`. */
export function callContext(sdk: A2aSdk, call: A2aCall, requestedVersion: string | undefined): ServerCallContext {
  return new sdk.server.ServerCallContext({
    ...(requestedVersion ? { requestedVersion } : {}),
    state: new Map([[CALL_KEY, call]]),
  });
}

/** How long CancelTask waits for the run to end before it answers with the task as it is. */
const CANCEL_WAIT_MS = 10_000;

/**
 * `A2ARequestHandler` over Thoughtline runs: a task is a run (its id the run's workflow id), its
 * state read from Temporal on every call, so any server instance answers any task. The SDK's
 * `JsonRpcTransportHandler` parses and validates JSON-RPC and maps the errors thrown here.
 */
export class RunRequestHandler implements A2ARequestHandler {
  constructor(
    private readonly sdk: A2aSdk,
    private readonly ctx: ApiContext,
    private readonly hub: RunStreamHub,
    private readonly push: PushNotifications,
    private readonly log: (line: string) => void,
  ) {}

  /** Only the route serves cards (it knows the agent and the base URL); the transport never asks. */
  getAgentCard(): Promise<AgentCard> {
    return Promise.reject(new this.sdk.errors.UnsupportedOperationError('GET the agent card from its URL.'));
  }

  getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    return Promise.reject(new this.sdk.errors.ExtendedAgentCardNotConfiguredError());
  }

  sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    return this.guard('SendMessage', async () => {
      const call = this.call(context);
      const message = checkMessage(params.message);
      this.push.check(params.configuration?.taskPushNotificationConfig);
      const { runId, contextId, started } = await this.deliver(call, message);
      await this.push.register(
        call.identity,
        runId,
        params.configuration?.taskPushNotificationConfig,
        this.pushEvents(call, runId),
      );
      const options = { userMessage: message, contextId, ...historyLength(params.configuration?.historyLength) };
      // A run started just now has nothing to read yet (and a query would wait for its first task).
      if (params.configuration?.returnImmediately)
        return taskOfSnapshot(
          started ? { state: 'submitted', runId } : await readRunSnapshot(this.ctx, call.identity, runId),
          options,
        );
      return taskOfSnapshot(await this.settled(call, runId), options);
    });
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const call = this.call(context);
    const { message, runId, contextId } = await this.guard('SendStreamingMessage', async () => {
      const message = checkMessage(params.message);
      this.push.check(params.configuration?.taskPushNotificationConfig);
      const delivered = await this.deliver(call, message);
      await this.push.register(
        call.identity,
        delivered.runId,
        params.configuration?.taskPushNotificationConfig,
        this.pushEvents(call, delivered.runId),
      );
      return { message, runId: delivered.runId, contextId: delivered.contextId };
    });
    yield* this.events('SendStreamingMessage', call, runId, { userMessage: message, contextId });
  }

  getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.guard('GetTask', async () => {
      const call = this.call(context);
      const snapshot = await readRunSnapshot(this.ctx, call.identity, taskId(params.id));
      const contextId = await contextIdOf(this.ctx, snapshot);
      return taskOfSnapshot(snapshot, { contextId, ...historyLength(params.historyLength) });
    });
  }

  cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.guard('CancelTask', async () => {
      const call = this.call(context);
      const id = taskId(params.id);
      const before = await readRunSnapshot(this.ctx, call.identity, id);
      const state = statusOf(before).state;
      if (isTerminal(state))
        throw new this.sdk.errors.TaskNotCancelableError('The task has ended; there is nothing to cancel.');
      const reason = typeof params.metadata?.reason === 'string' ? params.metadata.reason.slice(0, 1_000) : undefined;
      await cancelRun(this.ctx, call.identity, id, reason ?? 'cancelled through A2A');
      // The run finishes its current step and ends cancelled; wait a little for that, on its events.
      const abort = AbortSignal.any([call.abort, AbortSignal.timeout(CANCEL_WAIT_MS)]);
      const after = await this.settled({ ...call, abort }, id, isTerminalSnapshot);
      return taskOfSnapshot(after, { contextId: await contextIdOf(this.ctx, after) });
    });
  }

  async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const call = this.call(context);
    const id = await this.guard('SubscribeToTask', async () => taskId(params.id));
    yield* this.events('SubscribeToTask', call, id);
  }

  listTasks(): Promise<ListTasksResponse> {
    return Promise.reject(
      new this.sdk.errors.UnsupportedOperationError(
        'ListTasks is not offered here; GET /v1/runs lists your runs, and GetTask reads one.',
      ),
    );
  }

  createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.guard('CreateTaskPushNotificationConfig', async () => {
      const call = this.call(context);
      const id = taskId(params.taskId);
      await this.ctx.accessRun(call.identity, id);
      return this.push.create(call.identity, id, params, this.pushEvents(call, id));
    });
  }

  getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.guard('GetTaskPushNotificationConfig', async () =>
      this.push.get(this.call(context).identity, taskId(params.taskId), params.id),
    );
  }

  listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    context: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.guard('ListTaskPushNotificationConfigs', async () => ({
      configs: this.push.list(this.call(context).identity, taskId(params.taskId)),
      nextPageToken: '',
    }));
  }

  deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<void> {
    return this.guard('DeleteTaskPushNotificationConfig', async () =>
      this.push.delete(this.call(context).identity, taskId(params.taskId), params.id),
    );
  }

  /** The task's events for its push follower: each read as the person `as` resolves then (their current roles), until the task ends or the follower stops. */
  private pushEvents(call: A2aCall, runId: string): TaskEvents {
    return (abort, as) => this.events('push notifications', { ...call, abort }, runId, {}, as);
  }

  private call(context: ServerCallContext): A2aCall {
    const call = context.state.get(CALL_KEY) as A2aCall | undefined;
    // The route always sets it; a context without one is a programming error, answered as internal.
    if (!call) throw new Error('A2A call context without the authenticated call');
    return call;
  }

  /**
   * A message with a task id answers that task; one with a context id is a turn of that context's
   * thread; one with neither starts (or finds) the run its message id keys, its own context.
   */
  private async deliver(
    call: A2aCall,
    message: Message,
  ): Promise<{ runId: string; contextId: string; started: boolean }> {
    if (message.taskId) {
      const id = taskId(message.taskId);
      await replyToTask(this.ctx, call.identity, id, message);
      return { runId: id, contextId: message.contextId || (await this.contextOfRun(call, id)), started: false };
    }
    const text = messageText(message);
    if (message.contextId) {
      const turn = await startThreadTurn(
        this.ctx,
        call.identity,
        call.agent,
        message.contextId,
        message.messageId,
        text,
      );
      return { ...turn, contextId: message.contextId };
    }
    const run = await startOrFindRun(this.ctx, call.identity, call.agent, message.messageId, text);
    return { ...run, contextId: run.runId };
  }

  private async contextOfRun(call: A2aCall, runId: string): Promise<string> {
    const facts = await this.ctx.accessRun(call.identity, runId);
    return contextIdOf(this.ctx, {
      state: 'submitted',
      runId,
      ...(facts.parentRunId ? { parentRunId: facts.parentRunId } : {}),
    });
  }

  /** The run's snapshot once `done` holds for it (default: ended or waiting for input), or when `abort` fires. */
  private async settled(
    call: A2aCall,
    runId: string,
    done: (snapshot: RunSnapshot) => boolean = (s) => isSettled(statusOf(s).state),
  ): Promise<RunSnapshot> {
    let last: RunSnapshot | undefined;
    for await (const snapshot of followRun(this.ctx, this.hub, call.identity, runId, call.abort)) {
      last = snapshot;
      if (done(snapshot)) return snapshot;
    }
    return last ?? readRunSnapshot(this.ctx, call.identity, runId);
  }

  /** The task, then a status update per change, then the artifacts (answer, chain) and the final status. */
  private async *events(
    method: string,
    call: A2aCall,
    runId: string,
    known: { userMessage?: Message; contextId?: string } = {},
    as?: () => Promise<Identity>,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const snapshots = followRun(this.ctx, this.hub, call.identity, runId, call.abort, as);
    let contextId = known.contextId ?? '';
    let first = true;
    for (;;) {
      const next = await this.guard(method, () => snapshots.next());
      if (next.done) return;
      const snapshot = next.value;
      if (first) {
        first = false;
        if (!known.contextId) contextId = await this.guard(method, () => contextIdOf(this.ctx, snapshot));
        const userMessage = known.userMessage ? { userMessage: known.userMessage } : {};
        yield { payload: { $case: 'task', value: taskOfSnapshot(snapshot, { contextId, ...userMessage }) } };
        continue;
      }
      for (const artifact of artifactsOf(snapshot))
        yield {
          payload: {
            $case: 'artifactUpdate',
            value: { taskId: runId, contextId, artifact, append: false, lastChunk: true, metadata: undefined },
          },
        };
      yield {
        payload: {
          $case: 'statusUpdate',
          value: {
            taskId: runId,
            contextId,
            status: statusOf(snapshot, contextId),
            metadata: { thoughtline: metadataOf(snapshot) },
          },
        },
      };
    }
  }

  /** Runs `work`, turning whatever it throws into an A2A error (never a stack or a raw message). */
  private async guard<T>(where: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw toA2aError(this.sdk.errors, err, this.log, where);
    }
  }
}

const isTerminalSnapshot = (snapshot: RunSnapshot): boolean => isTerminal(statusOf(snapshot).state);

/**
 * The runs a protocol started: an A2A message's (start-run.ts) and a thread turn's
 * (workflows/threads). Only these are tasks: a run started through /v1 may have set what its
 * views show (`visibility`), which a task's final answer would not honour.
 */
const TASK_RUN_ID = /^(a2a-[0-9a-f]{64}|thread-[0-9a-f]{32}-turn-\d{1,9})$/;

/** A task id is the workflow id of a run A2A or a thread started; any other id is not found, as another tenant's. */
function taskId(id: string | undefined): string {
  if (!id || id.length > 1_000)
    throw new ApiError('bad_request', 'A task id is 1 to 1,000 characters: the id SendMessage returned.');
  if (!TASK_RUN_ID.test(id)) throw runNotFound();
  return id;
}

const historyLength = (n: number | undefined): { historyLength?: number } =>
  n === undefined || n === null ? {} : { historyLength: Math.max(0, Math.floor(n)) };
