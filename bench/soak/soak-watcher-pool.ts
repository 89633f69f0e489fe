import type { SoakRun } from './soak-runs';
import { watchRun, type SoakWatch } from './soak-watcher';

/**
 * Fifty (or SOAK_WATCHERS) people watching live runs: each follows an open run to its end (joining
 * it wherever it is: the server replays what came before), then the next, until the soak stops.
 * Every watch is kept for the checks.
 */
export function startWatcherPool(o: {
  count: number;
  runs: readonly SoakRun[];
  serves: ReadonlyArray<{ url: string }>;
  token: string;
}): { watches: SoakWatch[]; stop(): Promise<void> } {
  const watches: SoakWatch[] = [];
  let stopped = false;
  const current = new Set<SoakWatch>();
  const loop = async (): Promise<void> => {
    while (!stopped) {
      const open = o.runs.filter((r) => r.runId && r.endedAt === undefined);
      const run = open[Math.floor(Math.random() * open.length)];
      if (!run) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        continue;
      }
      const watch = watchRun(o, run.runId!, o.token);
      watches.push(watch);
      current.add(watch);
      await watch.done;
      current.delete(watch);
    }
  };
  const loops = Array.from({ length: o.count }, loop);
  return {
    watches,
    async stop() {
      stopped = true;
      // Every run has ended by now: its watchers have a minute to hear the end; one that has not is a failure.
      await Promise.race([Promise.all([...current].map((w) => w.done)), new Promise((r) => setTimeout(r, 60_000))]);
      for (const w of current) {
        w.failure ??= 'no end heard within a minute of the soak draining';
        w.close();
      }
      await Promise.all(loops);
    },
  };
}
