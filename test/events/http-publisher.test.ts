import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpPublisher, type HttpPublisher } from '../../src/events/http-publisher';
import { createMemoryBus } from '../../src/events/memory-bus';
import type { EventBus } from '../../src/events/event-bus';
import { ApiError } from '../../src/server/api-error';
import type { Authenticator, Identity } from '../../src/server/auth/identity';
import { registerIngestRoute } from '../../src/server/events/ingest-route';
import type { ServerContext } from '../../src/server/server-context';
import type { RunEvent } from '../../src/domain/run/run-event';
import { pollFor } from '../helpers/approval-helpers';

const TOKENS: Record<string, Identity> = {
  'pub-token': { id: 'worker-1', roles: ['publisher'], via: 'token' },
  'dev-token': { id: 'dana', roles: ['developer'], via: 'token' },
};

/** Fixed tokens, as a token file would map them. */
const auth: Authenticator = {
  async authenticate(authorization) {
    const identity = TOKENS[authorization?.replace(/^Bearer /, '') ?? ''];
    if (!identity) throw new Error('unknown token');
    return identity;
  },
};

interface Served {
  app: FastifyInstance;
  bus: EventBus;
  url: string;
  requests: number[];
  maxConcurrent: number;
}

/** A real Fastify app with the ingest route and a memory bus; each request is held `holdMs`. */
async function serve(port = 0, holdMs = 0): Promise<Served> {
  const app = Fastify();
  const bus = createMemoryBus();
  const served = { app, bus, url: '', requests: [] as number[], maxConcurrent: 0 };
  let concurrent = 0;
  app.setErrorHandler((err: Error & { statusCode?: number }, _request, reply) => {
    if (err instanceof ApiError) return reply.code(err.status).send(err.toJSON());
    return reply.code(err.statusCode ?? 500).send({ error: { code: 'internal', message: err.message } });
  });
  app.addHook('preHandler', async (request) => {
    concurrent += 1;
    served.maxConcurrent = Math.max(served.maxConcurrent, concurrent);
    if (Array.isArray(request.body)) served.requests.push(request.body.length);
    if (holdMs) await new Promise((r) => setTimeout(r, holdMs));
  });
  app.addHook('onResponse', async () => {
    concurrent -= 1;
  });
  // Every run exists and is tenant-less: these tests are about the publisher, not who may publish (test/server/events-ingest-scope).
  const accessRun = async (identity: Identity, workflowId: string) => {
    if (identity.tenant) throw new ApiError('not_found', `No run ${workflowId}.`);
    return { workflowId };
  };
  registerIngestRoute(app, { bus, auth, accessRun } as unknown as ServerContext);
  served.url = await app.listen({ port, host: '127.0.0.1' });
  return served;
}

const step = (runId: string, n: number): RunEvent => ({
  type: 'step',
  runId,
  chainStatus: 'thinking',
  stepNumber: n,
  step: {
    type: 'thinking',
    stepId: `s${n}`,
    stepNumber: n,
    timestamp: '2026-01-01T00:00:00.000Z',
    iteration: 1,
    thought: `thought ${n}`,
    visibility: { level: 'full' },
  },
});
const delta = (runId: string, offset: number): RunEvent => ({
  type: 'text_delta',
  runId,
  chainStatus: 'thinking',
  stepNumber: 1,
  activityId: '3',
  attempt: 1,
  kind: 'text',
  offset,
  text: 'x',
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});
const track = <T extends { close(): Promise<unknown> }>(o: T): T => (open.push(o), o);
/** A publisher closed after the test with a short deadline (its server may be gone). */
const tracked = (p: HttpPublisher): HttpPublisher => (open.push({ close: () => p.close(100) }), p);

describe('POST /v1/internal/events', () => {
  it('publishes each event of a batch on the bus, in order (202)', async () => {
    const s = await serve();
    track(s.app);
    const got: RunEvent[] = [];
    s.bus.subscribe('wf-1', (e) => got.push(e));
    const res = await fetch(`${s.url}/v1/internal/events`, {
      method: 'POST',
      headers: { authorization: 'Bearer pub-token', 'content-type': 'application/json' },
      body: JSON.stringify([step('wf-1', 1), delta('wf-1', 0), step('wf-1', 2)]),
    });
    expect(res.status).toBe(202);
    expect(got.map((e) => e.type)).toEqual(['step', 'text_delta', 'step']);
  });

  it('401 without a known token, 403 without role publisher, 400 with the zod path of a bad event or a batch over 1,000', async () => {
    const s = await serve();
    track(s.app);
    const got: RunEvent[] = [];
    s.bus.subscribe('wf-1', (e) => got.push(e));
    const post = (token: string | undefined, body: unknown) =>
      fetch(`${s.url}/v1/internal/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    expect((await post(undefined, [step('wf-1', 1)])).status).toBe(401);
    const forbidden = await post('dev-token', [step('wf-1', 1)]);
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    const bad = await post('pub-token', [step('wf-1', 1), { ...step('wf-1', 2), chainStatus: 'dancing' }]);
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { code: string; issues: Array<{ path: unknown[] }> } };
    expect(body.error.code).toBe('bad_request');
    expect(body.error.issues.map((i) => i.path)).toContainEqual([1, 'chainStatus']);
    expect(
      (
        await post(
          'pub-token',
          Array.from({ length: 1_001 }, (_, i) => delta('wf-1', i)),
        )
      ).status,
    ).toBe(400);
    expect((await post('pub-token', { not: 'an array' })).status).toBe(400);
    // Nothing of a refused batch was published.
    expect(got).toEqual([]);
  });
});

describe('createHttpPublisher', () => {
  it('sends batches in order with one request in flight; what arrives meanwhile goes in the next batch', async () => {
    const s = await serve(0, 30);
    track(s.app);
    const got: number[] = [];
    s.bus.subscribe('wf-1', (e) => got.push(e.type === 'text_delta' ? e.offset : -1));
    const publisher = tracked(createHttpPublisher({ url: s.url, token: 'pub-token', log: () => {} }));
    for (let i = 0; i < 2_500; i += 1) publisher.publish(delta('wf-1', i));
    await new Promise((r) => setTimeout(r, 10));
    for (let i = 2_500; i < 2_600; i += 1) publisher.publish(delta('wf-1', i));
    await pollFor('every event delivered', () => (got.length === 2_600 ? true : undefined));
    expect(got).toEqual(Array.from({ length: 2_600 }, (_, i) => i));
    expect(s.maxConcurrent).toBe(1);
    expect(s.requests.every((n) => n <= 1_000)).toBe(true);
    expect(s.requests.length).toBeLessThanOrEqual(5);
    // The server publishes a batch before it answers: the publisher counts it sent once the answer is in.
    await pollFor('the last batch acknowledged', () => (publisher.stats().inFlight === 0 ? true : undefined));
    expect(publisher.stats()).toMatchObject({ queuedEvents: 0, inFlight: 0, sent: 2_600, dropped: 0 });
  });

  it('403 for an identity without role publisher: nothing is delivered, the queue stays bounded', async () => {
    const s = await serve();
    track(s.app);
    const got: RunEvent[] = [];
    s.bus.subscribe('wf-1', (e) => got.push(e));
    const publisher = tracked(
      createHttpPublisher({
        url: s.url,
        token: 'dev-token',
        maxQueuedEvents: 50,
        initialRetryMs: 10,
        maxRetryMs: 20,
        log: () => {},
      }),
    );
    for (let i = 0; i < 200; i += 1) publisher.publish(step('wf-1', i + 1));
    await pollFor('a few refused requests', () => (s.requests.length >= 3 ? true : undefined));
    expect(got).toEqual([]);
    expect(publisher.stats().queuedEvents).toBeLessThanOrEqual(50);
  });

  it('holds its bound while the server is down (text deltas go first), then drains in order when it comes up', async () => {
    const port = await freePort();
    const lines: string[] = [];
    const publisher: HttpPublisher = tracked(
      createHttpPublisher({
        url: `http://127.0.0.1:${port}`,
        token: 'pub-token',
        maxQueuedEvents: 100,
        initialRetryMs: 20,
        maxRetryMs: 50,
        log: (l) => lines.push(l),
      }),
    );
    for (let i = 1; i <= 60; i += 1) {
      publisher.publish(step('wf-1', i));
      for (let k = 0; k < 50; k += 1) publisher.publish(delta('wf-1', i * 50 + k));
    }
    await new Promise((r) => setTimeout(r, 150));
    const held = publisher.stats();
    expect(held.queuedEvents + held.inFlight).toBeLessThanOrEqual(100 + 1_000);
    expect(held.queuedEvents).toBeLessThanOrEqual(100);
    expect(held.dropped).toBeGreaterThanOrEqual(60 * 51 - 100 - 1_000);
    // Drops and the unreachable server are reported, once each, not per event.
    expect(lines.length).toBeLessThanOrEqual(3);
    expect(lines.some((l) => /dropped \d+ text delta/.test(l))).toBe(true);

    const s = await serve(port);
    track(s.app);
    const got: RunEvent[] = [];
    s.bus.subscribe('wf-1', (e) => got.push(e));
    await pollFor(
      'the queue drained',
      () => (publisher.stats().queuedEvents + publisher.stats().inFlight === 0 ? true : undefined),
      10_000,
    );
    // Every step survived (deltas were dropped first), in order.
    const steps = got.flatMap((e) => (e.type === 'step' ? [e.stepNumber] : []));
    expect(steps).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(got.length).toBe(publisher.stats().sent);
  });

  it('a byte bound holds too', async () => {
    const port = await freePort();
    const publisher = tracked(
      createHttpPublisher({
        url: `http://127.0.0.1:${port}`,
        token: 'pub-token',
        maxQueuedBytes: 10_000,
        initialRetryMs: 1_000,
        log: () => {},
      }),
    );
    for (let i = 1; i <= 500; i += 1) publisher.publish(step('wf-1', i));
    expect(publisher.stats().queuedBytes).toBeLessThanOrEqual(10_000);
    expect(publisher.stats().dropped).toBeGreaterThan(0);
  });

  it('close() sends what is queued before it resolves; against a server that is down it gives up at its deadline', async () => {
    const s = await serve();
    track(s.app);
    const got: RunEvent[] = [];
    s.bus.subscribe('wf-1', (e) => got.push(e));
    const publisher = createHttpPublisher({ url: s.url, token: 'pub-token', log: () => {} });
    for (let i = 1; i <= 30; i += 1) publisher.publish(step('wf-1', i));
    await publisher.close();
    expect(got).toHaveLength(30);
    publisher.publish(step('wf-1', 31));
    expect(publisher.stats().dropped).toBe(1);

    const down = createHttpPublisher({
      url: `http://127.0.0.1:${await freePort()}`,
      token: 'pub-token',
      log: () => {},
    });
    down.publish(step('wf-1', 1));
    const started = Date.now();
    await down.close(300);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(down.stats()).toMatchObject({ queuedEvents: 0, dropped: 1 });
  });
});
