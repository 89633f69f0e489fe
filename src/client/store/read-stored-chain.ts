import type { ReasoningChain, ReasoningStep, ViewerRole } from '../../shared';
import { IncrementalChainView } from '../../shared/chain-view';
import type { StepFilter, StoredRun } from '../../shared/store';
import type { ChainStore } from '../../store/chain-store';
import { givenFilter, matchesStepFilter } from './step-filter-match';

/** Raw steps read from the store at a time while a page fills. */
const BATCH = 500;

/** A page of a chain read from the store, in one role's view. */
export interface StoredPage {
  chain: ReasoningChain;
  /** Steps of the whole chain in this view (those that pass the filter, when filtering). */
  totalSteps: number;
  /** Set when more steps follow the page. */
  nextAfterStep?: number;
  run: StoredRun;
}

export interface StoredPageRequest {
  afterStep?: number;
  /** Default: every step. */
  limit?: number;
  filter?: StepFilter;
}

/**
 * A page of `runId`'s chain from the store in `role`'s view, or undefined when the store does not
 * have the run or knows it is behind (read Temporal then). The store matches filters on raw
 * steps; each candidate is viewed here and kept only when its viewed form still matches, so a
 * text that `role` does not see (a sensitive value, a hidden step) never finds a step. Rejects
 * when the store does.
 */
export async function readStoredPage(
  store: ChainStore,
  runId: string,
  role: ViewerRole,
  request: StoredPageRequest = {},
): Promise<StoredPage | undefined> {
  const stored = await store.head(runId);
  if (!stored || stored.run.behindSince !== undefined) return undefined;
  const { run, head, facts } = stored;
  const view = IncrementalChainView.fromFacts(facts);
  const filter = givenFilter(request.filter);
  // The store already matched the tool (it knows each result's call); the rest is re-checked as viewed.
  const recheck = filter ? { ...filter, tool: undefined } : undefined;
  const limit = request.limit ?? Number.MAX_SAFE_INTEGER;
  const start = request.afterStep ?? 0;
  const page: ReasoningStep[] = [];
  let more = false;
  let matched = 0;
  // Filtered, every match counts toward totalSteps: read from the first step. Unfiltered, the page
  // and one more step are enough (more batches only when hidden steps leave the page short).
  let after = filter ? 0 : start;
  const batch = filter ? BATCH : Math.min(BATCH, limit + 1);
  for (;;) {
    const raw = await store.steps(runId, { afterStep: after, limit: batch, ...(filter ? { filter } : {}) });
    for (const step of raw) {
      const viewed = view.step(step, role);
      if (!viewed || (recheck && !matchesStepFilter(viewed, recheck, () => undefined))) continue;
      matched += 1;
      if (step.stepNumber <= start) continue;
      if (page.length < limit) page.push(viewed);
      else more = true;
    }
    // Unfiltered, the count is known from the run's row: stop once the page and one more are read.
    if (raw.length < batch || (!filter && more)) break;
    after = raw[raw.length - 1]!.stepNumber;
  }
  return {
    // The head viewed as `page` views it; the steps were viewed once above, exactly as `page` would.
    chain: { ...view.page(head, [], role, run.hiddenSteps), steps: page },
    totalSteps: filter ? matched : role === 'auditor' ? run.stepCount : run.stepCount - run.hiddenSteps,
    ...(more ? { nextAfterStep: page[page.length - 1]!.stepNumber } : {}),
    run,
  };
}
