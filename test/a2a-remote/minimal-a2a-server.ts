import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCard, Task } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import type { ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server' with { 'resolution-mode': 'import' };

/** How the minimal agent ends a task: its answer (and reported spend), or a question it asks. */
export type MinimalOutcome =
  | { kind: 'answer'; text: string; thoughtline?: { runId?: string; costUsd?: number; usage?: Record<string, number> } }
  | { kind: 'ask'; question: string }
  | { kind: 'fail'; text: string };

export interface MinimalA2aServer {
  /** The card's URL: `http://127.0.0.1:PORT/.well-known/agent-card.json`. */
  cardUrl: string;
  origin: string;
  /** Tasks the agent started executing (a repeated message id starts none). */
  executions: number;
  /** Message ids received by SendMessage, repeats included. */
  messageIds: string[];
  /** GetTask requests answered. */
  gets: number;
  /** Task ids CancelTask was called for. */
  cancelled: string[];
  /** Authorization headers received, in order. */
  authorizations: Array<string | undefined>;
  /** Ends every waiting task with this outcome. */
  release(outcome: MinimalOutcome): void;
  /** Resolves once a task is executing (waiting for `release`). */
  started: Promise<void>;
  close(): Promise<void>;
}

const TASK_STATE = { working: 2, completed: 3, failed: 4, canceled: 5, inputRequired: 6 } as const;

/**
 * A test-only A2A agent built from the SDK's own server pieces (`DefaultRequestHandler`,
 * `InMemoryTaskStore`, `JsonRpcTransportHandler`) on a plain node:http server. Its tasks wait
 * until the test releases them. Like a Thoughtline server, it maps a repeated message id to the
 * task that id started, so a retried send never starts a second task.
 */
export async function startMinimalA2aServer(options: { token?: string } = {}): Promise<MinimalA2aServer> {
  const server = await import('@a2a-js/sdk/server');
  const core = await import('@a2a-js/sdk');
  let release!: (outcome: MinimalOutcome) => void;
  const outcome = new Promise<MinimalOutcome>((resolve) => (release = resolve));
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const taskByMessage = new Map<string, string>();
  const state: Pick<MinimalA2aServer, 'executions' | 'gets' | 'messageIds' | 'cancelled' | 'authorizations'> = {
    executions: 0,
    gets: 0,
    messageIds: [],
    cancelled: [],
    authorizations: [],
  };
  const now = () => new Date().toISOString();
  const message = (contextId: string, taskId: string, text: string) => ({
    messageId: `${taskId}-status`,
    contextId,
    taskId,
    role: 2,
    parts: [
      { content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  });
  const executor = {
    async execute(ctx: RequestContext, bus: ExecutionEventBus) {
      state.executions += 1;
      taskByMessage.set(ctx.userMessage.messageId, ctx.taskId);
      const task: Task = {
        id: ctx.taskId,
        contextId: ctx.contextId,
        status: { state: TASK_STATE.working, message: undefined, timestamp: now() },
        artifacts: [],
        history: [ctx.userMessage],
        metadata: undefined,
      };
      bus.publish(server.AgentEvent.task(task));
      markStarted();
      const end = await outcome;
      const base = { taskId: ctx.taskId, contextId: ctx.contextId };
      if (end.kind === 'answer') {
        bus.publish(
          server.AgentEvent.artifactUpdate({
            ...base,
            artifact: {
              artifactId: 'answer',
              name: 'answer',
              description: '',
              parts: [
                {
                  content: { $case: 'text', value: end.text },
                  metadata: undefined,
                  filename: '',
                  mediaType: 'text/plain',
                },
              ],
              metadata: end.thoughtline ? { thoughtline: end.thoughtline } : undefined,
              extensions: [],
            },
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        );
      }
      const final =
        end.kind === 'answer'
          ? TASK_STATE.completed
          : end.kind === 'ask'
            ? TASK_STATE.inputRequired
            : TASK_STATE.failed;
      const text = end.kind === 'ask' ? end.question : end.kind === 'fail' ? end.text : undefined;
      bus.publish(
        server.AgentEvent.statusUpdate({
          ...base,
          status: {
            state: final,
            message: text ? message(ctx.contextId, ctx.taskId, text) : undefined,
            timestamp: now(),
          },
          metadata: undefined,
        }),
      );
      bus.finished();
    },
    async cancelTask(taskId: string, bus: ExecutionEventBus) {
      state.cancelled.push(taskId);
      bus.publish(
        server.AgentEvent.statusUpdate({
          taskId,
          contextId: '',
          status: { state: TASK_STATE.canceled, message: undefined, timestamp: now() },
          metadata: undefined,
        }),
      );
      bus.finished();
    },
  };
  const httpServer = http.createServer();
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: 'minimal',
    description: 'A test agent that answers when released',
    supportedInterfaces: [{ url: `${origin}/a2a`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  };
  const handler = new server.DefaultRequestHandler(card, new server.InMemoryTaskStore(), executor);
  const transport = new server.JsonRpcTransportHandler(handler);
  httpServer.on('request', (req, res) => {
    state.authorizations.push(req.headers.authorization);
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401).end();
      return;
    }
    if (req.method === 'GET' && req.url === '/.well-known/agent-card.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(core.AgentCard.toJSON(card)));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id: number;
        method: string;
        params: { message?: { messageId?: string } };
      };
      const messageId = body.method === 'SendMessage' ? body.params.message?.messageId : undefined;
      if (messageId) state.messageIds.push(messageId);
      if (body.method === 'GetTask') state.gets += 1;
      const known = messageId ? taskByMessage.get(messageId) : undefined;
      // A repeated message id answers with the task it started, as GetTask would.
      const answer = known
        ? await transport.handle(
            { jsonrpc: '2.0', id: body.id, method: 'GetTask', params: { id: known } },
            new server.ServerCallContext(),
          )
        : await transport.handle(body as unknown as Record<string, unknown>, new server.ServerCallContext());
      const json =
        known && 'result' in (answer as object)
          ? { ...(answer as object), result: { task: (answer as { result: unknown }).result } }
          : answer;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  return {
    cardUrl: `${origin}/.well-known/agent-card.json`,
    origin,
    get executions() {
      return state.executions;
    },
    get gets() {
      return state.gets;
    },
    messageIds: state.messageIds,
    cancelled: state.cancelled,
    authorizations: state.authorizations,
    release: (o) => {
      release(o);
    },
    started,
    close: () => new Promise<void>((resolve) => httpServer.close(() => resolve())),
  };
}
