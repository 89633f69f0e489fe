import { describe, expect, it } from 'vitest';
import {
  awaitedOf,
  mapStep,
  Pending,
  settled,
  stepPromise,
  type Outcome,
} from '../../../../src/workflows/core/pending';

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

  describe('awaited by the caller itself (awaitedOf, then settled)', () => {
    const outcomeOf = async (p: Promise<unknown>): Promise<Outcome> => {
      try {
        return { value: await p };
      } catch (failure) {
        return { failure };
      }
    };

    it('awaits the source itself and maps its value without a promise', async () => {
      const source = Promise.resolve(5);
      const step = Pending.of(
        source,
        (n) => n + 1,
        () => 0,
      ).map((n) => n * 2);
      expect(awaitedOf(step)).toBe(source);
      expect(settled(step, await outcomeOf(awaitedOf(step)))).toBe(12);
    });

    it("reads a pending step's failure through fail, and throws a promise step's", async () => {
      const pending = Pending.of(
        Promise.reject(new Error('no')),
        () => 'yes',
        (err) => `read: ${(err as Error).message}`,
      );
      expect(settled(pending, await outcomeOf(awaitedOf(pending)))).toBe('read: no');
      const plain = Promise.reject(new Error('thrown'));
      const outcome = await outcomeOf(awaitedOf(plain));
      expect(() => settled(plain, outcome)).toThrow('thrown');
    });

    it("gives a promise step's value as it is", async () => {
      const plain = Promise.resolve('as is');
      expect(settled(plain, await outcomeOf(awaitedOf(plain)))).toBe('as is');
    });
  });
});
