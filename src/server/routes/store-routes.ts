import { chainTimeline, MAX_USAGE_DAYS, summariseChain, type RunSearch, type UsageReport } from '../../domain/store';
import type { ChainStore, StoreScope } from '../../store/chain-store';
import { searchStore } from '../../client/store/search-store';
import { ApiError } from '../api-error';
import { defineRoute, type ApiContext, type ApiRoute } from '../api-route';
import { RunIdParams } from '../api-schemas';
import { chainForCaller } from './chain-for-caller';
import { searchInLens } from '../policy/search-in-lens';
import {
  SearchQuery,
  SearchResponse,
  SourcedQuery,
  SummaryResponse,
  TimelineResponse,
  UsageQuery,
  UsageResponse,
} from './store-schemas';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A store that fails is a 503 saying so: a search never answers from part of the runs. */
async function storeRead<T>(store: ChainStore, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError('unavailable', `The chain store (${store.kind}) could not be read now; retry shortly.`);
  }
}

function needStore(ctx: ApiContext): ChainStore {
  if (ctx.store) return ctx.store;
  throw new ApiError(
    'unavailable',
    'Search and usage need the chain store: run serve with THOUGHTLINE_STORE set (unset means the SQLite file .thoughtline/store.sqlite; "off" disables it).',
  );
}

export const getSummary = defineRoute({
  method: 'GET',
  url: '/v1/runs/:id/summary',
  operationId: 'getChainSummary',
  summary: "What the run's chain comes to (counts, tools, cost, main decisions) in the caller's view",
  params: RunIdParams,
  query: SourcedQuery,
  response: { status: 200, description: 'The summary', schema: SummaryResponse },
  errors: [400, 401, 403, 404, 503],
  async handle({ ctx, identity, params, query }) {
    const { chain, source } = await chainForCaller(ctx, identity, params.id, query);
    return { ...summariseChain(chain), runId: params.id, ...source };
  },
});

export const getTimeline = defineRoute({
  method: 'GET',
  url: '/v1/runs/:id/timeline',
  operationId: 'getChainTimeline',
  summary: "The run's timeline (model calls, tool calls, approval waits, sub-agents as bars) in the caller's view",
  params: RunIdParams,
  query: SourcedQuery,
  response: { status: 200, description: 'The timeline', schema: TimelineResponse },
  errors: [400, 401, 403, 404, 503],
  async handle({ ctx, identity, params, query }) {
    const { chain, source } = await chainForCaller(ctx, identity, params.id, query);
    return { ...chainTimeline(chain), runId: params.id, ...source };
  },
});

export const searchRuns = defineRoute({
  method: 'GET',
  url: '/v1/search',
  operationId: 'searchRuns',
  summary:
    "Runs of the caller's tenant matching every filter given (agent, caller, state (the ending's: failed for failure and error), termination reason, tool called, text of the task or any step as the caller's view shows it, cost, start time); needs the chain store",
  query: SearchQuery,
  response: { status: 200, description: 'One page of runs, newest first', schema: SearchResponse },
  errors: [400, 401, 403, 503],
  async handle({ ctx, identity, query }) {
    const store = needStore(ctx);
    const { view: requested, details, ...search } = query;
    // The tenant and the view come from the caller's identity, never from the query.
    const scope: StoreScope = { tenant: identity.tenant ?? null, role: ctx.viewFor(identity, requested) };
    return storeRead(store, async () => {
      const found = await searchStore(store, search as RunSearch, scope);
      return searchInLens(ctx, store, identity, scope.role, search as RunSearch, found, details);
    });
  },
});

export const getUsage = defineRoute({
  method: 'GET',
  url: '/v1/usage',
  operationId: 'getUsage',
  summary:
    "Runs, steps, tokens and cost per agent per UTC day of the caller's tenant (default the last 30 days, at most 366); the developer view or wider",
  query: UsageQuery,
  response: { status: 200, description: 'The usage report', schema: UsageResponse },
  errors: [400, 401, 403, 503],
  async handle({ ctx, identity, query }): Promise<UsageReport> {
    // End users never see cost: the developer's view (or the auditor's) is required.
    const role = ctx.viewFor(identity, undefined);
    if (role === 'end_user')
      throw new ApiError(
        'forbidden',
        'Usage shows cost: it needs the developer view or wider (a developer, operator or auditor role).',
      );
    const store = needStore(ctx);
    const to = query.to ?? new Date().toISOString();
    const from = query.from ?? new Date(Date.parse(to) - 30 * DAY_MS).toISOString();
    const span = Date.parse(to) - Date.parse(from);
    if (span < 0) throw new ApiError('bad_request', '"from" must be before "to".');
    if (span > MAX_USAGE_DAYS * DAY_MS)
      throw new ApiError('bad_request', `A usage report covers at most ${MAX_USAGE_DAYS} days; narrow from and to.`);
    const scope = { tenant: identity.tenant ?? null, role };
    const rows = await storeRead(store, () => store.usage(scope, from, to, query.agent));
    const totals = { runs: 0, steps: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
    for (const row of rows) for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += row[key];
    return { from, to, rows, totals };
  },
});

export const STORE_ROUTES: readonly ApiRoute[] = [getSummary, getTimeline, searchRuns, getUsage];
