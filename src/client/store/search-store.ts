import type { ReasoningStep, ViewerRole } from '../../domain';
import { IncrementalChainView } from '../../domain/chain/chain-view';
import type { RunSearch, RunSearchHit, RunSearchResult, StoredRun } from '../../domain/store';
import type { ChainStore, StoreScope } from '../../store/chain-store';
import { stepExcerpt, stepText } from '../../domain/store';
import { identityOfChain, type LensOfRun } from '../runs/run-lens';

/** Candidate steps re-checked per run found; a run whose first ones all fail the caller's view is dropped. */
const RECHECK_STEPS = 50;

/**
 * One run the store found, re-checked in the caller's view: the steps that made it match (text,
 * tool), or its task for text, must still match as that view shows them, else it is dropped; its row is redacted as the
 * view redacts the chain's head, and below the auditor its tools are those of steps the view shows.
 */
async function recheck(
  store: ChainStore,
  run: StoredRun,
  search: RunSearch,
  role: ViewerRole,
  lensOf: LensOfRun | undefined,
): Promise<RunSearchHit | undefined> {
  const stored = await store.head(run.runId);
  if (!stored) return undefined;
  const view = IncrementalChainView.fromFacts(stored.facts);
  const lens = lensOf?.(identityOfChain(stored.head), role);
  const shown = async (filter: Parameters<ChainStore['steps']>[1]['filter']) =>
    (await store.steps(run.runId, { afterStep: 0, limit: RECHECK_STEPS, ...(filter ? { filter } : {}) }))
      .map((step) => view.step(step, role, lens))
      .filter((step): step is ReasoningStep => step !== undefined);
  if (search.tool !== undefined && (await shown({ tool: search.tool })).length === 0) return undefined;
  const matches: RunSearchHit['matches'] = [];
  if (search.text !== undefined) {
    const needle = search.text.toLowerCase();
    const found = (await shown({ text: search.text })).filter((step) => stepText(step).toLowerCase().includes(needle));
    // The task as the view shows it (sensitive values masked) matches too, with no step to name.
    const inTask = view.redact(run.task, role).toLowerCase().includes(needle);
    if (found.length === 0 && !inTask) return undefined;
    for (const step of found.slice(0, 5))
      matches.push({ stepNumber: step.stepNumber, excerpt: stepExcerpt(step, needle) });
  }
  let tools = run.tools;
  if ((role !== 'auditor' && run.hiddenSteps > 0) || lens) {
    const names = new Set<string>();
    for (let after = 0; ;) {
      const calls = await store.steps(run.runId, { afterStep: after, limit: 500, filter: { types: ['tool_call'] } });
      for (const step of calls)
        if (step.type === 'tool_call' && view.step(step, role, lens)) names.add(step.toolCall.toolName);
      if (calls.length < 500) break;
      after = calls[calls.length - 1]!.stepNumber;
    }
    tools = [...names].sort();
  }
  return { run: view.redact({ ...run, tools }, role), matches };
}

/**
 * Runs in `scope` matching `search`, as the store finds them, each re-checked in `scope.role`'s
 * view (see recheck), narrowed by the visibility policy's lens for each run (`lensOf`, when given).
 * `search.tenant` can only narrow to `scope.tenant`: any other finds nothing.
 */
export async function searchStore(
  store: ChainStore,
  search: RunSearch,
  scope: StoreScope,
  lensOf?: LensOfRun,
): Promise<RunSearchResult> {
  if (search.tenant !== undefined && search.tenant !== scope.tenant) return { hits: [], source: 'store' };
  const { tenant: _tenant, ...narrowing } = search;
  const found = await store.searchRuns(narrowing, scope);
  const hits: RunSearchHit[] = [];
  for (const { run } of found.runs) {
    // A store that widened the scope would be a bug there; this keeps it from being a leak here.
    if ((run.tenant ?? null) !== scope.tenant) continue;
    const hit = await recheck(store, run, search, scope.role, lensOf);
    if (hit) hits.push(hit);
  }
  return { hits, ...(found.next !== undefined ? { next: found.next } : {}), source: 'store' };
}
