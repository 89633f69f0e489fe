import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventBus } from '../../src/events/event-bus';
import { createMemoryBus } from '../../src/events/memory-bus';
import { createRedisBus } from '../../src/events/redis-bus';
import type { RunEvent } from '../../src/domain/run/run-event';
import { pollFor } from '../helpers/approval-helpers';
import { startRedisServer, type RedisServer } from '../helpers/redis-server';

let redis: RedisServer;
const buses: EventBus[] = [];
const redisBus = (): EventBus => {
  const b = createRedisBus(redis.url, { log: () => {} });
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

const status = (runId: string, stepNumber: number): RunEvent => ({
  type: 'status',
  runId,
  chainStatus: 'thinking',
  stepNumber,
});

describe('EventBus.subscribeAll', () => {
  it('on the memory bus: every run, beside per-run listeners, until unsubscribed', () => {
    const bus = createMemoryBus();
    const all: string[] = [];
    const one: string[] = [];
    const stopAll = bus.subscribeAll((e) => all.push(`${e.runId}:${e.stepNumber}`));
    bus.subscribe('a', (e) => one.push(`${e.runId}:${e.stepNumber}`));
    bus.publish(status('a', 1));
    bus.publish(status('b', 1));
    stopAll();
    bus.publish(status('b', 2));
    expect(all).toEqual(['a:1', 'b:1']);
    expect(one).toEqual(['a:1']);
  });

  it('on the Redis bus: every run from another process, and a reconnect is told after Redis restarts', async () => {
    const worker = redisBus();
    const server = redisBus();
    const got: string[] = [];
    let reconnects = 0;
    server.subscribeAll(
      (e) => got.push(`${e.runId}:${e.stepNumber}`),
      () => (reconnects += 1),
    );
    await pollFor(
      'the pattern subscription to be live',
      () => {
        if (got.length > 0) return true;
        worker.publish(status('probe', 0));
        return undefined;
      },
      15_000,
      100,
    );
    got.length = 0;
    worker.publish(status('x', 1));
    worker.publish(status('y', 1));
    await pollFor('both runs', () => (got.length >= 2 ? true : undefined), 5_000, 20);
    expect(got).toEqual(['x:1', 'y:1']);
    expect(reconnects).toBe(0);

    await redis.stop();
    await redis.start();
    await pollFor('the reconnect', () => (reconnects > 0 ? true : undefined), 15_000, 50);
    got.length = 0;
    await pollFor(
      'events after the reconnect',
      () => {
        if (got.some((g) => g.startsWith('z:'))) return true;
        worker.publish(status('z', 2));
        return undefined;
      },
      15_000,
      100,
    );
    expect(reconnects).toBe(1);
  });
});
