/**
 * One lane of work per run: whatever is handed to a run's lane runs after everything handed to it
 * before (events in order, a catch-up never beside a write of the same run). Runs' lanes run side
 * by side. A failed piece of work never stops the ones after it. A lane is forgotten once empty.
 */
export interface RunLanes {
  run<T>(runId: string, work: () => Promise<T>): Promise<T>;
  /** Resolves when every lane is empty. */
  idle(): Promise<void>;
  /** Whether the run's lane has work handed to it and not yet done. */
  busy(runId: string): boolean;
}

export function createRunLanes(): RunLanes {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(runId, work) {
      const previous = tails.get(runId) ?? Promise.resolve();
      const result = previous.then(work, work);
      const tail = result.catch(() => undefined);
      tails.set(runId, tail);
      void tail.then(() => {
        if (tails.get(runId) === tail) tails.delete(runId);
      });
      return result;
    },
    async idle() {
      while (tails.size > 0) await Promise.all([...tails.values()]);
    },
    busy: (runId) => tails.has(runId),
  };
}
