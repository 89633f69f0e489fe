import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { ApiError } from '../../src/server/api-error';
import type { Authenticator } from '../../src/server/auth/identity';
import { registerIngestRoute } from '../../src/server/events/ingest-route';
import { createRunAccess } from '../../src/server/run-access';
import type { ServerContext } from '../../src/server/server-context';
import { createMemoryBus } from '../../src/events/memory-bus';
import type { RunEvent } from '../../src/domain/run/run-event';
import { startFakeMessagesServer, text, type FakeMessagesServer } from '../../src/testing';
import { pollFor } from '../helpers/approval-helpers';
import { cliEnv, spawnCli, type CliProcess } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();
let worker: CliProcess | undefined;
let fake: FakeMessagesServer | undefined;
const app = Fastify();
afterAll(async () => {
  worker?.child.kill('SIGTERM');
  await worker?.exited;
  await fake?.close();
  await app.close();
});

const auth: Authenticator = {
  async authenticate(authorization) {
    if (authorization === 'Bearer worker-secret') return { id: 'worker', roles: ['publisher'], via: 'token' };
    throw new ApiError('unauthenticated', 'unknown token');
  },
};

describe('`thoughtline worker` with THOUGHTLINE_EVENTS pointing at a server', () => {
  it('publishes every step, the streamed text and the end of a run to the server, from its own process', async () => {
    const answer = 'Paris is sunny today, eighteen degrees, and the evening stays dry for a walk.';
    fake = await startFakeMessagesServer({ script: [text(answer)] });
    const bus = createMemoryBus();
    app.setErrorHandler((err: Error, _request, reply) =>
      err instanceof ApiError
        ? reply.code(err.status).send(err.toJSON())
        : reply.code(500).send({ error: { code: 'internal', message: err.message } }),
    );
    // The server's own check of which runs a publisher may publish for, against the dev server.
    const accessRun = createRunAccess(new AgentClient({ client: env.client }));
    registerIngestRoute(app, { bus, auth, accessRun } as unknown as ServerContext);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });

    const taskQueue = `events-${randomUUID()}`;
    worker = spawnCli(
      ['worker'],
      cliEnv({
        THOUGHTLINE_TASK_QUEUE: taskQueue,
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake.baseUrl,
        THOUGHTLINE_EVENTS: url,
        THOUGHTLINE_EVENTS_TOKEN: 'worker-secret',
      }),
    );
    await worker.waitFor(/worker polling task queue/);

    const workflowId = `remote-${randomUUID()}`;
    const events: RunEvent[] = [];
    bus.subscribe(workflowId, (e) => events.push(e));
    const agents = new AgentClient({ client: env.client, taskQueue });
    const result = await (
      await agents.start(
        { task: 'What is the weather in Paris?', model: { provider: 'anthropic', model: 'claude-sonnet-4-6' } },
        { workflowId },
      )
    ).result();
    expect(result).toMatchObject({ success: true, finalAnswer: answer });
    await pollFor('the end event', () => events.find((e) => e.type === 'end'));

    expect(events.flatMap((e) => (e.type === 'step' ? [e.step] : []))).toEqual(result.chain.steps);
    const deltas = events.flatMap((e) => (e.type === 'text_delta' ? [e] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((d) => d.text).join('')).toBe(answer);
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed' });
    expect(worker.output()).not.toMatch(/dropped|cannot reach/);
  });
});
