import Fastify from 'fastify';
import { Client, Connection } from '@temporalio/client';
import { AgentClient } from '../../src/client/agent-client';
import { ApiError } from '../../src/client/server/api-error';
import { registerEventsRoute } from '../../src/client/server/events/events-route';
import type { ServerContext } from '../../src/client/server/server-context';
import { createMemoryBus } from '../../src/events/memory-bus';
import { RunEvent } from '../../src/shared/run-event';

/** What the parent passes, as JSON in argv[2]. */
export interface PushServerSpec {
  address: string;
  namespace: string;
  taskQueue: string;
  token: string;
}

/** Messages to the parent over IPC. */
export type PushServerMessage =
  | { type: 'ready'; url: string }
  | { type: 'memory'; rssBytes: number; heapUsedBytes: number; watchers: number; runs: number };

const send = (message: PushServerMessage): void => void process.send?.(message);

/**
 * Entry of the push figure's server process: the events route over a memory bus, fed by the
 * worker process through `POST /bench/events` (a stand-in for the producer's
 * `/v1/internal/events` until that is merged), alone in its process so its memory is its own.
 * Answers 'memory' with RSS and heap after a full GC (node --expose-gc).
 */
async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as PushServerSpec;
  const connection = await Connection.connect({ address: spec.address });
  const agents = new AgentClient({ client: new Client({ connection, namespace: spec.namespace }), taskQueue: spec.taskQueue });
  const bus = createMemoryBus();
  const bench = { id: 'bench', roles: ['developer'], via: 'token' as const };
  const ctx: ServerContext = {
    agents,
    bus,
    auth: {
      async authenticate(authorization) {
        if (authorization !== `Bearer ${spec.token}`) throw new ApiError('unauthenticated', 'bench token only');
        return bench;
      },
    },
    accessRun: async (_identity, workflowId) => ({ workflowId }),
    viewFor: (_identity, requested) => (requested === 'end_user' ? 'end_user' : 'developer'),
  };
  const app = Fastify({ bodyLimit: 4 << 20 });
  const route = registerEventsRoute(app, ctx);
  app.post('/bench/events', async (request) => {
    for (const event of request.body as unknown[]) bus.publish(RunEvent.parse(event));
    return { ok: true };
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', (message) => {
    if (message === 'memory') {
      (globalThis as { gc?: () => void }).gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      send({ type: 'memory', rssBytes: rss, heapUsedBytes: heapUsed, watchers: route.watcherCount(), runs: route.runCount() });
    }
    if (message === 'stop') void app.close().then(() => connection.close()).then(() => process.exit(0));
  });
  process.once('disconnect', () => process.exit(0));
  send({ type: 'ready', url });
}

main().catch((err: unknown) => {
  console.error('push server failed:', err);
  process.exit(1);
});
