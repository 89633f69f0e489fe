import type { RunLanes } from './run-lanes';

export interface CatchUpQueueOptions {
  lanes: RunLanes;
  /** Catches one run up; its failures are its own to report (the queue ignores them). */
  catchUp: (runId: string, kind: CatchUpKind) => Promise<void>;
  /** Catch-ups at once in each of the two pools (each reads Temporal). Default 4. */
  concurrency?: number;
  /** Run ids waiting at most in each pool; more are refused (`add` returns false). Default 10,000. */
  limit?: number;
}

/** `urgent`: a run an event said is behind (a gap, its end). `sweep`: one a sweep listed. */
export type CatchUpKind = 'urgent' | 'sweep';

export interface CatchUpQueue {
  /** Queues a run unless it is already waiting (a waiting catch-up will see everything until it starts). */
  add(runId: string, kind?: CatchUpKind): boolean;
  /** Run ids waiting or being caught up. */
  size(): number;
  /** Whether the run waits for its catch-up. */
  waits(runId: string): boolean;
  /** Resolves when nothing waits and nothing runs. */
  idle(): Promise<void>;
}

/**
 * Runs waiting to be caught up from Temporal: deduplicated, bounded, a few at a time, each in its
 * run's lane (after that run's earlier events, before its later ones). Runs an event named and
 * runs a sweep listed wait in separate pools: a sweep of many runs (some with no worker to answer
 * their query) never holds up the run a watcher just saw end.
 */
export function createCatchUpQueue(options: CatchUpQueueOptions): CatchUpQueue {
  const concurrency = options.concurrency ?? 4;
  const limit = options.limit ?? 10_000;
  const pools = { urgent: { waiting: new Set<string>(), active: 0 }, sweep: { waiting: new Set<string>(), active: 0 } };
  let settled: (() => void)[] = [];
  const size = (): number =>
    pools.urgent.waiting.size + pools.urgent.active + pools.sweep.waiting.size + pools.sweep.active;

  const next = (): void => {
    for (const kind of ['urgent', 'sweep'] as const) {
      const pool = pools[kind];
      while (pool.active < concurrency && pool.waiting.size > 0) {
        const runId = pool.waiting.values().next().value as string;
        pool.waiting.delete(runId);
        pool.active += 1;
        void options.lanes
          .run(runId, () => options.catchUp(runId, kind))
          .catch(() => undefined)
          .finally(() => {
            pool.active -= 1;
            next();
          });
      }
    }
    if (size() === 0) {
      const waiters = settled;
      settled = [];
      for (const resolve of waiters) resolve();
    }
  };

  const waits = (runId: string): boolean => pools.urgent.waiting.has(runId) || pools.sweep.waiting.has(runId);
  return {
    add(runId, kind = 'sweep') {
      if (pools.urgent.waiting.has(runId)) return true;
      const pool = pools[kind];
      if (kind === 'urgent') pools.sweep.waiting.delete(runId);
      else if (pool.waiting.has(runId)) return true;
      if (pool.waiting.size >= limit) return false;
      pool.waiting.add(runId);
      queueMicrotask(next);
      return true;
    },
    size,
    waits,
    idle: () => (size() === 0 ? Promise.resolve() : new Promise<void>((resolve) => settled.push(resolve))),
  };
}
