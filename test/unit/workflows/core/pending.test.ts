import { describe, expect, it } from 'vitest';
import { mapStep, Pending, stepPromise } from '../../../../src/workflows/core/pending';

describe('Pending: an activity promise and what its callers make of it, mapped before it settles', () => {
  it('applies the mappings in order to the source value', async () => {
    const pending = Pending.of(
      Promise.resolve(2),
      (n) => n * 10,
      () => -1,
    ).map((n) => `${n}!`);
    await expect(pending.promise()).resolves.toBe('20!');
  });

  it('reads a failure of the source through `fail`, then the mappings', async () => {
    const pending = Pending.of(
      Promise.reject(new Error('lost')),
      () => 'ran',
      (err) => `failed: ${(err as Error).message}`,
    ).map((s) => s.toUpperCase());
    await expect(pending.promise()).resolves.toBe('FAILED: LOST');
  });

  it('rejects with what a mapping throws, without passing it to `fail`', async () => {
    let failures = 0;
    const pending = Pending.of(
      Promise.resolve(1),
      (n) => n,
      () => (failures += 1),
    ).map(() => {
      throw new Error('mapping broke');
    });
    await expect(pending.promise()).rejects.toThrow('mapping broke');
    expect(failures).toBe(0);
  });

  it('waits for a step that returns a promise before the next mapping', async () => {
    const order: string[] = [];
    const pending = Pending.of(
      Promise.resolve('a'),
      (s) => Promise.resolve().then(() => (order.push('ok'), `${s}b`)),
      () => 'x',
    ).map((s) => (order.push('map'), `${s}c`));
    await expect(pending.promise()).resolves.toBe('abc');
    expect(order).toEqual(['ok', 'map']);
  });

  it('makes one promise for the whole chain: the source then', async () => {
    const source = Promise.resolve(1);
    const thens: unknown[] = [];
    const original = source.then.bind(source);
    source.then = ((ok: never, fail: never) => (thens.push(ok), original(ok, fail))) as typeof source.then;
    const step = mapStep(
      mapStep(
        Pending.of(
          source,
          (n) => n + 1,
          () => 0,
        ),
        (n) => n * 2,
      ),
      (n) => [n],
    );
    await expect(stepPromise(step)).resolves.toEqual([4]);
    expect(thens).toHaveLength(1);
  });

  it('maps a plain promise step with then', async () => {
    await expect(stepPromise(mapStep(Promise.resolve(3), (n) => n + 1))).resolves.toBe(4);
  });
});
