import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { viewerModule } from './viewer-module';

interface ReadAgainModule {
  mayPass(err: unknown): boolean;
  readAgainUntilAnswered(
    read: () => Promise<void>,
    options: { failed(err: unknown, waitMs: number | undefined): void },
  ): () => void;
  tryingAgainText(waitMs: number): string;
}

const failure = (status: number) => Object.assign(new Error(`status ${status}`), { status });
let mayPass: ReadAgainModule['mayPass'];
let readAgainUntilAnswered: ReadAgainModule['readAgainUntilAnswered'];
let tryingAgainText: ReadAgainModule['tryingAgainText'];
beforeAll(async () => {
  ({ mayPass, readAgainUntilAnswered, tryingAgainText } = await viewerModule<ReadAgainModule>('read-again.js'));
});

/** A read that fails with each of `statuses` in turn, then answers. */
function reads(statuses: number[]) {
  const calls: number[] = [];
  const read = async () => {
    calls.push(Date.now());
    const status = statuses[calls.length - 1];
    if (status !== undefined) throw failure(status);
  };
  return { calls, read };
}

describe('viewer/read-again.js', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('tries a read the server could not answer again, 0.5 s doubling, until it answers', async () => {
    const { calls, read } = reads([503, 0, 502, 429]);
    const waits: Array<number | undefined> = [];
    readAgainUntilAnswered(read, { failed: (_err, waitMs) => waits.push(waitMs) });
    await vi.runAllTimersAsync();
    expect(calls).toEqual([0, 500, 1500, 3500, 7500]);
    expect(waits).toEqual([500, 1000, 2000, 4000]);
  });

  it('stops at a refusal or an error of its own, and when told to', async () => {
    for (const status of [400, 401, 403, 404]) {
      const { calls, read } = reads([503, status, 503]);
      const waits: Array<number | undefined> = [];
      readAgainUntilAnswered(read, { failed: (_err, waitMs) => waits.push(waitMs) });
      await vi.runAllTimersAsync();
      expect(calls).toHaveLength(2);
      expect(waits).toEqual([500, undefined]);
    }
    const own: unknown[] = [];
    readAgainUntilAnswered(
      async () => {
        throw new TypeError('not a page');
      },
      { failed: (_err, waitMs) => own.push(waitMs) },
    );
    await vi.runAllTimersAsync();
    expect(own).toEqual([undefined]);

    const { calls, read } = reads([503, 503, 503]);
    const stop = readAgainUntilAnswered(read, { failed: () => undefined });
    await vi.advanceTimersByTimeAsync(600);
    stop();
    await vi.runAllTimersAsync();
    expect(calls).toHaveLength(2);
  });

  it('names what may pass and how long the page waits', () => {
    expect([0, 429, 500, 502, 503, 504].map((status) => mayPass(failure(status)))).toEqual(Array(6).fill(true));
    expect([200, 400, 401, 403, 404, 409, 413].map((status) => mayPass(failure(status)))).toEqual(Array(7).fill(false));
    expect([undefined, null, new Error('no status')].map(mayPass)).toEqual([false, false, false]);
    expect([500, 2000, 15_000].map(tryingAgainText)).toEqual([
      'trying again in 500 ms',
      'trying again in 2 s',
      'trying again in 15 s',
    ]);
  });
});
