import type { ReasoningStep, ViewerRole } from '../../domain';
import { IncrementalChainView } from '../../domain/chain/chain-view';
import {
  stepExcerpt,
  stepText,
  type RunSearch,
  type RunSearchHit,
  type RunSearchResult,
  type StoredRun,
} from '../../domain/store';
import type { ViewLens } from '../../domain/visibility';
import type { ChainStore } from '../../store/chain-store';

/** Candidate steps re-checked per run found, as the store's own re-check reads them. */
const RECHECK_STEPS = 50;

/** The lens one reader reads a found run through; undefined when none narrows it (the hit as found). */
export type LensOfFoundRun = (run: StoredRun) => Promise<ViewLens | undefined>;

/**
 * One hit re-checked through the caller's lens for its run: a run found by a step (text, tool)
 * the lens leaves out is dropped, excerpts are cut from the step as the lens shows it, and the
 * run's tools are those of calls the lens shows. A sub-agent's run the lens hides is dropped;
 * one shown as its summary matches on nothing but its row.
 */
async function recheck(
  store: ChainStore,
  hit: RunSearchHit,
  search: RunSearch,
  role: ViewerRole,
  lens: ViewLens,
): Promise<RunSearchHit | undefined> {
  const sub = hit.run.parentRunId !== undefined ? lens.subChains : undefined;
  if (sub === 'hidden') return undefined;
  if (sub === 'summary' && (search.text !== undefined || search.tool !== undefined)) return undefined;
  const stored = await store.head(hit.run.runId);
  if (!stored) return undefined;
  const view = IncrementalChainView.fromFacts(stored.facts);
  const shown = async (filter: Parameters<ChainStore['steps']>[1]['filter']) =>
    (await store.steps(hit.run.runId, { afterStep: 0, limit: RECHECK_STEPS, ...(filter ? { filter } : {}) }))
      .map((step) => view.step(step, role, lens))
      .filter((step): step is ReasoningStep => step !== undefined);
  if (search.tool !== undefined && (await shown({ tool: search.tool })).length === 0) return undefined;
  const matches: RunSearchHit['matches'] = [];
  if (search.text !== undefined) {
    const needle = search.text.toLowerCase();
    const found = (await shown({ text: search.text })).filter((step) => stepText(step).toLowerCase().includes(needle));
    // The hit's task is already as the view shows it.
    if (found.length === 0 && !hit.run.task.toLowerCase().includes(needle)) return undefined;
    for (const step of found.slice(0, 5))
      matches.push({ stepNumber: step.stepNumber, excerpt: stepExcerpt(step, needle) });
  }
  const names = new Set<string>();
  if (sub !== 'summary')
    for (let after = 0; ;) {
      const calls = await store.steps(hit.run.runId, {
        afterStep: after,
        limit: 500,
        filter: { types: ['tool_call'] },
      });
      for (const step of calls)
        if (step.type === 'tool_call' && view.step(step, role, lens)) names.add(step.toolCall.toolName);
      if (calls.length < 500) break;
      after = calls[calls.length - 1]!.stepNumber;
    }
  return { run: { ...hit.run, tools: [...names].sort() }, matches };
}

/**
 * A search's hits (as searchStore found them in `role`'s view) re-checked through each run's lens:
 * what `/v1/search` answers and `thoughtline search` prints. A run without a lens keeps its hit.
 */
export async function hitsInLens(
  store: ChainStore,
  role: ViewerRole,
  search: RunSearch,
  found: RunSearchResult,
  lensOf: LensOfFoundRun,
): Promise<RunSearchResult> {
  const hits: RunSearchHit[] = [];
  for (const hit of found.hits) {
    const lens = await lensOf(hit.run);
    const kept = lens ? await recheck(store, hit, search, role, lens) : hit;
    if (kept) hits.push(kept);
  }
  return { ...found, hits };
}
