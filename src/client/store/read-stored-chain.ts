import type { ReasoningChain, ReasoningStep, ViewerRole } from '../../domain';
import { IncrementalChainView } from '../../domain/chain/chain-view';
import type { StepFilter, StoredRun } from '../../domain/store';
import type { ChainStore } from '../../store/chain-store';
import { isEmptyLens } from '../../domain/visibility/lens-level';
import type { ViewLens } from '../../domain/visibility/view-lens';
import { identityOfChain, type LensOfRun } from '../runs/run-lens';
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
  /**
   * The visibility policy for this reader: a lens, or how to make one from the run's agent and
   * tenant (read from the stored head). Absent: the role's view as without a policy.
   */
  lens?: ViewLens | LensOfRun;
}

/** Whether the lens limits results by tool or tool type: it needs to know every result's call. */
const limitsResults = (lens: ViewLens): boolean =>
  Object.values(lens.tools).some((rule) => rule.result !== undefined) ||
  Object.values(lens.toolTypes).some((rule) => rule?.result !== undefined);

/**
 * Teaches `view` every call of the run: stored facts leave out plain calls (compactFacts), and a
 * result rule must know a result's tool to apply (else it fails closed and hides the result).
 */
async function learnCalls(store: ChainStore, runId: string, view: IncrementalChainView): Promise<void> {
  for (let after = 0; ;) {
    const calls = await store.steps(runId, { afterStep: after, limit: BATCH, filter: { types: ['tool_call'] } });
    for (const step of calls) view.add(step);
    if (calls.length < BATCH) return;
    after = calls[calls.length - 1]!.stepNumber;
  }
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
  const given = typeof request.lens === 'function' ? request.lens(identityOfChain(head), role) : request.lens;
  const lens = isEmptyLens(given) ? undefined : given;
  if (lens && limitsResults(lens)) await learnCalls(store, runId, view);
  const filter = givenFilter(request.filter);
  // With a policy, the steps it leaves out are known only by viewing them: count from the first step.
  const counting = filter !== undefined || lens !== undefined;
  // The store already matched the tool (it knows each result's call); the rest is re-checked as viewed.
  const recheck = filter ? { ...filter, tool: undefined } : undefined;
  const limit = request.limit ?? Number.MAX_SAFE_INTEGER;
  const start = request.afterStep ?? 0;
  const page: ReasoningStep[] = [];
  let more = false;
  let matched = 0;
  // Filtered, every match counts toward totalSteps: read from the first step. Unfiltered, the page
  // and one more step are enough (more batches only when hidden steps leave the page short).
  let after = counting ? 0 : start;
  const batch = counting ? BATCH : Math.min(BATCH, limit + 1);
  let read = 0;
  for (;;) {
    const raw = await store.steps(runId, { afterStep: after, limit: batch, ...(filter ? { filter } : {}) });
    read += raw.length;
    for (const step of raw) {
      const viewed = view.step(step, role, lens);
      if (!viewed || (recheck && !matchesStepFilter(viewed, recheck, () => undefined))) continue;
      matched += 1;
      if (step.stepNumber <= start) continue;
      if (page.length < limit) page.push(viewed);
      else more = true;
    }
    // Unfiltered, the count is known from the run's row: stop once the page and one more are read.
    if (raw.length < batch || (!counting && more)) break;
    after = raw[raw.length - 1]!.stepNumber;
  }
  return {
    // The head viewed as `page` views it; the steps were viewed once above, exactly as `page` would.
    // The status is the latest event's (the head is rewritten from Temporal only at a catch-up).
    chain: {
      ...withLensCount(
        view.page({ ...head, status: run.chainStatus }, [], role, run.hiddenSteps, lens),
        lens && !filter ? read - matched : undefined,
      ),
      steps: page,
    },
    totalSteps: counting ? matched : role === 'auditor' ? run.stepCount : run.stepCount - run.hiddenSteps,
    ...(more ? { nextAfterStep: page[page.length - 1]!.stepNumber } : {}),
    run,
  };
}

/** The head's `view` with the steps the role and the policy left out of the whole chain, when counted. */
function withLensCount(chain: ReasoningChain, hidden: number | undefined): ReasoningChain {
  if (hidden === undefined || !chain.view) return chain;
  return { ...chain, view: { ...chain.view, hiddenSteps: hidden } };
}
