import type { z } from 'zod';
import type { ViewerRole } from '../../domain';
import { RunList, type StoredRun } from '../../domain/store';
import { runEnding } from '../../domain/run/run-ending';
import type { ChainStore } from '../../store/chain-store';
import { BadSearchCursorError } from '../../store/store-errors';
import { ApiError } from '../api-error';
import type { ListRunsQuery, ListRunsResponse, RunEndingSummary } from '../api-schemas';
import type { Identity } from '../auth/identity';

type Filters = z.infer<typeof ListRunsQuery>;

/** Filters visibility holds and the store does not: a sorted list refuses them rather than ignore them. */
const NOT_STORED = ['agentVersion', 'experiment', 'variant', 'origin'] as const;

/** Whether the caller asked for an order only the store can give (visibility lists newest first only). */
export const wantsStoreOrder = (filters: Filters): boolean =>
  (filters.sort !== undefined && filters.sort !== 'started') || filters.order === 'asc';

/**
 * One page of the caller's root runs from the chain store, sorted as asked (issue 82): the same
 * rows `GET /v1/runs` gives from visibility, in `view` (the end user's has no spend), for the
 * caller's tenant only. The page token is the store's cursor for this sort and order.
 */
export async function listStoredRuns(
  store: ChainStore | undefined,
  identity: Identity,
  filters: Filters,
  view: ViewerRole,
): Promise<z.infer<typeof ListRunsResponse>> {
  if (!store)
    throw new ApiError(
      'bad_request',
      'Sorting runs by anything but their start, newest first, reads the chain store, and this server has none: run serve with THOUGHTLINE_STORE set (unset means the SQLite file .thoughtline/store.sqlite).',
      [{ path: ['sort'], message: 'needs the chain store' }],
    );
  // An order by spend shows spend: not in a view that shows none.
  if (view === 'end_user' && (filters.sort === 'cost' || filters.sort === 'tokens'))
    throw new ApiError('bad_request', "The end user's view shows no spend, so it cannot sort by it.", [
      { path: ['sort'], message: "not in the end user's view" },
    ]);
  for (const field of NOT_STORED)
    if (filters[field] !== undefined)
      throw new ApiError('bad_request', `A sorted list reads the chain store, which does not hold ${field}.`, [
        { path: [field], message: 'not with sort' },
      ]);
  // A tenant other than the caller's own narrows to nothing; it never widens.
  if (filters.tenant !== undefined && filters.tenant !== identity.tenant) return { runs: [] };
  const list = RunList.parse({
    ...(filters.status !== undefined ? { state: filters.status } : {}),
    ...pick(filters, ['reason', 'agent', 'model', 'minIterations', 'minCostUsd', 'startedAfter', 'startedBefore']),
    sort: filters.sort ?? 'started',
    order: filters.order ?? 'desc',
    limit: filters.pageSize,
    ...(filters.pageToken !== undefined ? { cursor: filters.pageToken } : {}),
  });
  let page;
  try {
    page = await store.listRuns(list, { tenant: identity.tenant ?? null, role: view });
  } catch (err) {
    if (err instanceof BadSearchCursorError)
      throw new ApiError(
        'bad_request',
        'The pageToken is not one this server gave for this sort; start again without it.',
        [{ path: ['pageToken'], message: 'unknown page token' }],
      );
    throw new ApiError('unavailable', `The chain store (${store.kind}) could not be read now; retry shortly.`);
  }
  return {
    runs: page.runs.map((run) => summaryOfStored(run, view)),
    ...(page.next ? { nextPageToken: page.next } : {}),
  };
}

function pick<K extends keyof Filters>(filters: Filters, keys: readonly K[]): Partial<Pick<Filters, K>> {
  const picked: Partial<Pick<Filters, K>> = {};
  for (const key of keys) if (filters[key] !== undefined) picked[key] = filters[key];
  return picked;
}

/** A stored run as a list row: what visibility's row says, from the store's columns. */
function summaryOfStored(run: StoredRun, view: ViewerRole) {
  const ending =
    run.terminationReason !== undefined
      ? runEnding({ terminationReason: run.terminationReason })
      : // A completed run stored without its reason (schema before version 3) says only its state.
        run.state === 'running' || run.state === 'continued' || run.state === 'completed'
        ? undefined
        : runEnding({ execution: run.state });
  const summary: z.infer<typeof RunEndingSummary> | undefined = ending && {
    state: ending.state,
    ...(ending.terminationReason ? { terminationReason: ending.terminationReason } : {}),
    label: ending.label,
    tone: ending.tone,
    summary: ending.summary,
  };
  return {
    runId: run.runId,
    agentName: run.agentName,
    status: ending?.state ?? run.state,
    ...(summary ? { ending: summary } : {}),
    task: run.task,
    ...(run.tenant ? { tenant: run.tenant } : {}),
    startedAt: run.startedAt,
    ...(run.endedAt ? { closedAt: run.endedAt } : {}),
    ...(run.durationMs !== undefined ? { durationMs: run.durationMs } : {}),
    ...(run.iterations ? { iterations: run.iterations } : {}),
    ...(run.model ? { model: run.model } : {}),
    // Spend is the operator's business, as in visibility's rows.
    ...(view === 'end_user' ? {} : { tokens: run.inputTokens + run.outputTokens, costUsd: run.costUsd }),
  };
}
