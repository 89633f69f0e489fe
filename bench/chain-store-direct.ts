import { IncrementalChainView } from '../src/domain/chain/chain-view';
import type { RunSearchInput } from '../src/domain/store';
import { RunSearch } from '../src/domain/store';
import type { ChainStore, StoreScope } from '../src/store/chain-store';
import { PAGE_STEPS } from './chain-store-reads';
import { SEARCHES } from './chain-store-search';

/**
 * What the store-backed chain route does for one page, without HTTP: the run's head and facts,
 * the page's raw steps, the caller's view applied at read time. Used when the server's store
 * routes are not there to time (the figure says which way it measured).
 */
export async function timeStorePagesDirect(
  store: ChainStore,
  runId: string,
  starts: readonly number[],
): Promise<number[]> {
  const samplesMs: number[] = [];
  for (const afterStep of starts) {
    const started = performance.now();
    const stored = await store.head(runId);
    if (!stored) throw new Error(`the store has no run ${runId}`);
    const steps = await store.steps(runId, { afterStep, limit: PAGE_STEPS });
    const page = IncrementalChainView.fromFacts(stored.facts).page(
      stored.head,
      steps,
      'auditor',
      stored.run.hiddenSteps,
    );
    samplesMs.push(performance.now() - started);
    if (page.steps[0]?.stepNumber !== afterStep + 1 || page.steps.length !== PAGE_STEPS)
      throw new Error(`store page after ${afterStep}: from step ${page.steps[0]?.stepNumber} of ${page.steps.length}`);
  }
  return samplesMs;
}

/** The figure's searches through `ChainStore.searchRuns` in the searcher's scope, `rounds` times each. */
export async function timeSearchesDirect(
  store: ChainStore,
  scope: StoreScope,
  rounds: number,
): Promise<{ samplesMs: Record<string, number[]>; hits: Record<string, number> }> {
  const samplesMs: Record<string, number[]> = {};
  const hits: Record<string, number> = {};
  for (let round = 0; round < rounds; round++) {
    for (const { name, query } of SEARCHES) {
      const search = RunSearch.parse({ ...searchFromQuery(query), limit: 100 });
      const started = performance.now();
      const found = await store.searchRuns(search, scope);
      (samplesMs[name] ??= []).push(performance.now() - started);
      hits[name] = found.runs.length;
    }
  }
  return { samplesMs, hits };
}

function searchFromQuery(query: string): RunSearchInput {
  const params = new URLSearchParams(query);
  const cost = (name: string) => (params.has(name) ? Number(params.get(name)) : undefined);
  return {
    ...(params.get('text') ? { text: params.get('text')! } : {}),
    ...(params.get('tool') ? { tool: params.get('tool')! } : {}),
    ...(params.get('agent') ? { agent: params.get('agent')! } : {}),
    ...(cost('minCostUsd') !== undefined ? { minCostUsd: cost('minCostUsd') } : {}),
    ...(cost('maxCostUsd') !== undefined ? { maxCostUsd: cost('maxCostUsd') } : {}),
  };
}
