import type { RunLanes } from './run-lanes';

export interface CatchUpQueueOptions {
  lanes: RunLanes;
  /** Catches one run up; its failures are its own to report (the queue ignores them). */
  catchUp: (runId: string) => Promise<void>;
  /** Catch-ups at once (each reads Temporal). Default 4. */
  concurrency?: number;
  /** Run ids waiting at most; more are refused (`add` returns false). Default 10,000. */
  limit?: number;
}

export interface CatchUpQueue {
  /** Queues a run unless it is already waiting (a waiting catch-up will see everything until it starts). */
  add(runId: string): boolean;
  /** Run ids waiting or being caught up. */
  size(): number;
  /** Whether the run waits for its catch-up. */
  waits(runId: string): boolean;
  /** Resolves when nothing waits and nothing runs. */
  idle(): Promise<void>;
}

/**
 * Runs waiting to be caught up from Temporal: deduplicated, bounded, a few at a time, each in its
 * run's lane (after that run's earlier events, before its later ones).
 */
export function createCatchUpQueue(options: CatchUpQueueOptions): CatchUpQueue {
  const concurrency = options.concurrency ?? 4;
  const limit = options.limit ?? 10_000;
  const waiting = new Set<string>();
  let active = 0;
  let settled: (() => void)[] = [];

  const next = (): void => {
    while (active < concurrency && waiting.size > 0) {
      const runId = waiting.values().next().value as string;
      waiting.delete(runId);
      active += 1;
      void options.lanes
        .run(runId, () => options.catchUp(runId))
        .catch(() => undefined)
        .finally(() => {
          active -= 1;
          next();
        });
    }
    if (active === 0 && waiting.size === 0) {
      const waiters = settled;
      settled = [];
      for (const resolve of waiters) resolve();
    }
  };

  return {
    add(runId) {
      if (waiting.has(runId)) return true;
      if (waiting.size >= limit) return false;
      waiting.add(runId);
      queueMicrotask(next);
      return true;
    },
    size: () => waiting.size + active,
    waits: (runId) => waiting.has(runId),
    idle: () =>
      active === 0 && waiting.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => settled.push(resolve)),
  };
}
