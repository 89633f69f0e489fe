import Fastify from 'fastify';
import { createAgentCatalog } from '../../src/server/catalog/agent-catalog';
import { WorkflowNotFoundError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { ModelProvider } from '../../src/activities';
import { createScriptedModel, say, useTool, type ScriptedTurn } from '../../src/activities/models/scripted-model';
import type { AgentClient } from '../../src/client/agent-client';
import { ApiError } from '../../src/server/api-error';
import { currentIdentityFrom } from '../../src/server/auth/current-identity';
import type { Authenticator, Identity } from '../../src/server/auth/identity';
import { registerEventsRoute, type EventsRoute, type EventsRouteOptions } from '../../src/server/events/events-route';
import type { ServerContext } from '../../src/server/server-context';
import { createMemoryBus } from '../../src/events/memory-bus';
import type { EventBus } from '../../src/events/event-bus';
import { AgentInput, FailureType, type ViewerRole } from '../../src/domain';
import { taskOf } from '../helpers/people-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';

/** Fixed tokens of the tests, each an identity as an authenticator would establish it. */
export const TOKENS: Record<string, Identity> = {
  'dev-token': { id: 'dana', roles: ['developer'], tenant: 'acme', via: 'token' },
  'user-token': { id: 'ulla', roles: [], tenant: 'acme', via: 'token' },
  'auditor-token': { id: 'abe', roles: ['auditor'], tenant: 'acme', via: 'token' },
  'globex-token': { id: 'gil', roles: ['developer'], tenant: 'globex', via: 'token' },
  'acme-publisher': { id: 'worker-acme', roles: ['publisher'], tenant: 'acme', via: 'token' },
  'tenantless-publisher': { id: 'worker', roles: ['publisher'], via: 'token' },
  'all-tenants-publisher': { id: 'worker-shared', roles: ['publisher-all-tenants'], via: 'token' },
};

export const TENANT_CALLER = { id: 'dana', roles: ['developer'], tenant: 'acme' };

const tokenAuth: Authenticator = {
  async authenticate(authorization) {
    const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    const identity = token ? TOKENS[token] : undefined;
    if (!identity) throw new ApiError('unauthenticated', 'Unknown or missing token.');
    return identity;
  },
};

/** The views a role allows, widest first, as the API contract says. */
function viewsOf(identity: Identity): ViewerRole[] {
  if (identity.roles.includes('auditor')) return ['auditor', 'developer', 'end_user'];
  if (identity.roles.includes('developer') || identity.roles.includes('operator')) return ['developer', 'end_user'];
  return ['end_user'];
}

/** A ServerContext as `createServer` builds one, over the test's client and bus. */
export function testContext(agents: AgentClient, bus: EventBus): ServerContext {
  return {
    agents,
    bus,
    auth: tokenAuth,
    currentIdentity: currentIdentityFrom(tokenAuth),
    catalog: createAgentCatalog(),
    async accessRun(identity, workflowId) {
      try {
        const handle = agents.client.workflow.getHandle(workflowId);
        await handle.describe();
        const history = await handle.fetchHistory();
        const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
        const input = AgentInput.parse(
          agents.client.options.loadedDataConverter.payloadConverter.fromPayload(payload!),
        );
        if ((input.caller?.tenant ?? undefined) !== identity.tenant)
          throw new ApiError('not_found', `No run ${workflowId}.`);
        return { workflowId, ...(input.caller?.tenant ? { tenant: input.caller.tenant } : {}) };
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) throw new ApiError('not_found', `No run ${workflowId}.`);
        throw err;
      }
    },
    viewFor(identity, requested) {
      const allowed = viewsOf(identity);
      if (requested === undefined) return allowed[0]!;
      if (!allowed.includes(requested as ViewerRole))
        throw new ApiError('forbidden', `Your roles do not allow the ${requested} view.`);
      return requested as ViewerRole;
    },
  };
}

export interface EventsServer {
  url: string;
  bus: EventBus;
  route: EventsRoute;
  close(): Promise<void>;
}

/** A real Fastify instance with only the events route, on a free port. */
export async function startEventsServer(
  agents: AgentClient,
  options: EventsRouteOptions = {},
  bus: EventBus = createMemoryBus(),
  port = 0,
): Promise<EventsServer> {
  const app = Fastify();
  const route = registerEventsRoute(app, testContext(agents, bus), { safetyPollMs: 300, ...options });
  const url = await app.listen({ port, host: '127.0.0.1' });
  return { url, bus, route, close: () => app.close() };
}

export interface SseMessage {
  event: string;
  id: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

export interface OpenStream {
  status: number;
  headers: Headers;
  /** The JSON body of a refused request. */
  json?: unknown;
  messages: SseMessage[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  waitFor(what: string, test: (m: SseMessage) => boolean, timeoutMs?: number): Promise<SseMessage>;
  close(): void;
}

/** Opens the events stream with fetch and parses it as EventSource does. */
export async function openEvents(
  server: { url: string },
  workflowId: string,
  options: { token?: string; lastEventId?: string; query?: string } = {},
): Promise<OpenStream> {
  const abort = new AbortController();
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const response = await fetch(
    `${server.url}/v1/runs/${encodeURIComponent(workflowId)}/events${options.query ? `?${options.query}` : ''}`,
    { headers, signal: abort.signal },
  );
  const messages: SseMessage[] = [];
  const waiters = new Set<() => void>();
  const stream: OpenStream = {
    status: response.status,
    headers: response.headers,
    messages,
    ended: Promise.resolve(),
    close: () => abort.abort(),
    waitFor(what, test, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = messages.find(test);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`timed out waiting for ${what}; got ${messages.map((m) => `${m.event}#${m.id}`).join(' ')}`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    stream.json = await response.json();
    return stream;
  }
  // eventsource-parser is an ES module: loaded with import() from this CommonJS build.
  const { createParser } = await import('eventsource-parser');
  const parser = createParser({
    onEvent(message) {
      messages.push({ event: message.event ?? 'message', id: message.id ?? '', data: JSON.parse(message.data) });
      for (const waiter of [...waiters]) waiter();
    },
  });
  const decoder = new TextDecoder();
  stream.ended = (async () => {
    try {
      for await (const chunk of response.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch {
      // Aborted by the test.
    }
  })();
  return stream;
}

/**
 * A provider that plays one script per task; calls of a held task after its first `free` calls
 * wait until the test releases it.
 */
export class HeldScripts {
  private readonly scripts = new Map<string, ModelProvider>();
  private readonly holds = new Map<
    string,
    { free: number; calls: number; released: Promise<void>; release(): void; waiting: number }
  >();

  script(task: string, turns: readonly ScriptedTurn[], free = Infinity): { release(): void; waiting(): number } {
    this.scripts.set(task, createScriptedModel(turns));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const hold = { free, calls: 0, released, release, waiting: 0 };
    this.holds.set(task, hold);
    return { release, waiting: () => hold.waiting };
  }

  /** Scripts `task` and starts a run of it as TENANT_CALLER on the scripted model. */
  async start(agents: AgentClient, task: string, turns: readonly ScriptedTurn[], free = Infinity) {
    const gate = this.script(task, turns, free);
    const handle = await agents.start({ task, model: SCRIPTED_MODEL, caller: TENANT_CALLER, maxIterations: 20 });
    return { id: handle.workflowId, handle, ...gate };
  }

  readonly provider: ModelProvider = {
    name: 'scripted',
    complete: async (request, signal, hooks) => {
      const task = taskOf(request);
      const model = this.scripts.get(task);
      const hold = this.holds.get(task);
      if (!model || !hold)
        throw ApplicationFailure.create({
          type: FailureType.ScriptExhausted,
          message: `No script for task "${task}".`,
          nonRetryable: true,
        });
      hold.calls += 1;
      if (hold.calls > hold.free) {
        hold.waiting += 1;
        try {
          await Promise.race([
            hold.released,
            new Promise<never>((_, reject) =>
              signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
            ),
          ]);
        } finally {
          hold.waiting -= 1;
        }
      }
      return model.complete(request, signal, hooks);
    },
  };
}

/** `n` lookups, then the answer: 1 + 4n steps or so, each model call a step pair. */
export const lookupTurns = (n: number): ScriptedTurn[] => [
  ...Array.from({ length: n }, (_, i) => ({
    content: [say(`Looking up k${i}.`), useTool('lookup', { key: `k${i}` })],
  })),
  { content: [say('Final answer: done.')] },
];

/** Step numbers of the step messages received, in order. */
export const stepNumbers = (messages: readonly SseMessage[]): number[] =>
  messages.filter((m) => m.event === 'step').map((m) => m.data.stepNumber as number);
