import type { AgentClient } from '../../client/agent-client';
import type { ChainStore } from '../../store/chain-store';
import { everyRun } from './check-chain-store';
import { readRunFromTemporal, ActionCounter } from './read-run-from-temporal';
import { writeTemporalRun } from './write-temporal-run';

export interface StoreRebuild {
  runs: number;
  steps: number;
  /** Runs only the store still has (Temporal deleted their histories): kept, marked temporalGone. */
  gone: number;
  /** `chain` queries sent (Temporal actions): one per run that had not completed. */
  queries: number;
}

/**
 * Re-derives the store from Temporal: every agent run Temporal lists is written in full over what
 * the store has (idempotent upserts, so it is safe beside a running projection); runs only the
 * store has are kept and marked temporalGone. A few runs at a time.
 */
export async function rebuildChainStore(
  store: ChainStore,
  agents: AgentClient,
  options: { concurrency?: number; onRun?: (runId: string) => void } = {},
): Promise<StoreRebuild> {
  const counter = new ActionCounter();
  const ids = await everyRun(store, agents);
  const totals: StoreRebuild = { runs: ids.length, steps: 0, gone: 0, queries: 0 };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < ids.length) {
      const runId = ids[next++]!;
      const read = await readRunFromTemporal(agents, runId, 0, counter);
      const stored = await store.run(runId);
      if (read.kind === 'gone') {
        if (stored) {
          totals.gone += 1;
          if (!stored.temporalGone) await store.markTemporalGone(runId);
        }
        continue;
      }
      // Rebuild queries running runs too (readRunFromTemporal's default): never `running` here.
      if (read.kind !== 'found') continue;
      await writeTemporalRun(store, read, stored);
      totals.steps += read.steps.length;
      options.onRun?.(runId);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, ids.length) }, worker));
  return { ...totals, queries: counter.queries };
}
