import { describe, expect, it } from 'vitest';
import { createSerialQueue } from '../../../src/activities/models/local/serial-queue';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createSerialQueue: one model call at a time', () => {
  it('runs tasks one after another, in order', async () => {
    const run = createSerialQueue();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`start ${name}`);
      await sleep(20);
      log.push(`end ${name}`);
      return name;
    };
    const signal = new AbortController().signal;
    expect(await Promise.all([run(task('a'), signal), run(task('b'), signal)])).toEqual(['a', 'b']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('a waiting task aborted leaves at once with the reason; the queue goes on', async () => {
    const run = createSerialQueue();
    const never = new AbortController().signal;
    const first = run(() => sleep(200).then(() => 'first'), never);
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const waiting = run(async () => 'never ran', controller.signal);
    const startedAt = Date.now();
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(Date.now() - startedAt).toBeLessThan(100);
    expect(await first).toBe('first');
    expect(await run(async () => 'third', never)).toBe('third');
  });
});
