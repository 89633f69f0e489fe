import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventBus } from '../../src/events/event-bus';
import { createRedisBus, type RedisBus } from '../../src/events/redis-bus';
import type { RunEvent } from '../../src/domain/run/run-event';
import { pollFor } from '../helpers/approval-helpers';
import { startRedisServer, type RedisServer } from '../helpers/redis-server';

let redis: RedisServer;

const buses: EventBus[] = [];
const bus = (options: Parameters<typeof createRedisBus>[1] = { log: () => {} }): RedisBus => {
  const b = createRedisBus(redis.url, options);
  buses.push(b);
  return b;
};

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  for (const b of buses) await b.close();
  await redis?.stop();
});

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

/** Waits until a fresh subscription is live, by publishing a probe until `seen` says it arrived. */
async function untilLive(publisher: EventBus, runId: string, seen: () => boolean): Promise<void> {
  await pollFor(
    `a live subscription to ${runId}`,
    () => {
      if (seen()) return true;
      publisher.publish({ type: 'status', runId, chainStatus: 'thinking', stepNumber: 0 });
      return undefined;
    },
    15_000,
    100,
  );
}

describe('the Redis bus', () => {
  it('what one process publishes, another receives: in order, only for the runs it watches, on one subscriber connection', async () => {
    const worker = bus();
    const server = bus();
    const got: RunEvent[] = [];
    const other: RunEvent[] = [];
    server.subscribe('run-a', (e) => got.push(e));
    server.subscribe('run-b', (e) => other.push(e));
    server.subscribe('run-c', () => {});
    await untilLive(worker, 'run-a', () => got.length > 0);
    got.length = 0;
    for (let i = 1; i <= 200; i += 1) worker.publish(step('run-a', i));
    await pollFor('200 steps', () => (got.length >= 200 ? true : undefined));
    expect(got.map((e) => e.stepNumber)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(got.every((e) => e.runId === 'run-a')).toBe(true);
    expect(other.filter((e) => e.type === 'step')).toEqual([]);

    // Three runs watched, one pub/sub connection.
    const admin = createClient({ url: redis.url });
    await admin.connect();
    try {
      const pubsubClients = String(await admin.sendCommand(['CLIENT', 'LIST', 'TYPE', 'pubsub']))
        .trim()
        .split('\n')
        .filter(Boolean);
      expect(pubsubClients).toHaveLength(1);
      expect(await admin.sendCommand(['PUBSUB', 'NUMSUB', 'thoughtline:run:run-a', 'thoughtline:run:run-c'])).toEqual([
        'thoughtline:run:run-a',
        1,
        'thoughtline:run:run-c',
        1,
      ]);
    } finally {
      await admin.close();
    }
  });

  it('a listener that unsubscribes stops receiving; the others on the run keep receiving', async () => {
    const worker = bus();
    const server = bus();
    const witness = bus();
    const first: RunEvent[] = [];
    const second: RunEvent[] = [];
    const watched: RunEvent[] = [];
    const stopFirst = server.subscribe('run-u', (e) => first.push(e));
    const stopSecond = server.subscribe('run-u', (e) => second.push(e));
    witness.subscribe('run-u', (e) => watched.push(e));
    await untilLive(worker, 'run-u', () => first.length > 0 && second.length > 0 && watched.length > 0);
    stopFirst();
    const before = { first: first.length, second: second.length, watched: watched.length };
    worker.publish(step('run-u', 1));
    await pollFor('the witness to get step 1', () =>
      watched.length > before.watched && second.length > before.second ? true : undefined,
    );
    expect(first.length).toBe(before.first);
    stopSecond();
    stopSecond();
    const after = { second: second.length, watched: watched.length };
    worker.publish(step('run-u', 2));
    await pollFor('the witness to get step 2', () => (watched.length > after.watched ? true : undefined));
    await new Promise((r) => setTimeout(r, 100));
    expect(second.length).toBe(after.second);
  });

  it('both sides reconnect after the Redis server restarts, and the subscriber resubscribes', async () => {
    const lines: string[] = [];
    const worker = bus({ log: (line) => lines.push(line), maxPendingPublishes: 100 });
    const server = bus();
    const got: RunEvent[] = [];
    server.subscribe('run-r', (e) => got.push(e));
    await untilLive(worker, 'run-r', () => got.length > 0);
    await redis.stop();
    await pollFor('the publisher to notice', () => (lines.length > 0 ? true : undefined));
    // Published while Redis is down: at most 100 wait for the connection, the rest are dropped and counted; nothing throws.
    for (let i = 0; i < 1_000; i += 1) expect(() => worker.publish(step('run-r', 1))).not.toThrow();
    await pollFor('drops reported', () => lines.find((l) => /dropped \d+ events/.test(l)));
    await pollFor('at least 900 drops', () => (worker.stats().dropped >= 900 ? true : undefined));
    await redis.start();
    got.length = 0;
    await untilLive(worker, 'run-r', () => got.length > 0);
    worker.publish(step('run-r', 2));
    await pollFor('step 2 after the restart', () => got.find((e) => e.type === 'step' && e.stepNumber === 2));
  });
});
