import { z } from 'zod';
import { TerminationReason } from '../run/termination';
import { StoredRun, StoredRunState } from './stored-run';
import { MAX_SEARCH_PAGE } from './run-search';

/** What a run list sorts by, as the viewer's columns name them. */
export const RUN_SORT_KEYS = ['started', 'took', 'iterations', 'tokens', 'cost', 'model'] as const;
export type RunSortKey = (typeof RUN_SORT_KEYS)[number];

/**
 * A page of the store's root runs, sorted by one column (a run without the value, still running or
 * stored before schema version 6, comes last either way, then by id), paged by a cursor. Filters
 * narrow only; the caller's tenant and view are applied from their identity, never taken from here.
 */
export const RunList = z
  .object({
    state: StoredRunState.optional(),
    reason: TerminationReason.optional(),
    agent: z.string().min(1).max(200).optional(),
    model: z.string().min(1).max(200).optional(),
    minIterations: z.number().int().nonnegative().optional(),
    minCostUsd: z.number().nonnegative().optional(),
    startedAfter: z.iso.datetime({ offset: true }).optional(),
    startedBefore: z.iso.datetime({ offset: true }).optional(),
    sort: z.enum(RUN_SORT_KEYS).default('started'),
    order: z.enum(['asc', 'desc']).default('desc'),
    limit: z.number().int().min(1).max(MAX_SEARCH_PAGE).default(20),
    /** Opaque, from the previous page's `next` of the same sort and order. */
    cursor: z.string().max(1000).optional(),
  })
  .strict();
export type RunList = z.infer<typeof RunList>;
export type RunListInput = z.input<typeof RunList>;

export const RunListPage = z.object({
  runs: z.array(StoredRun),
  /** Pass as `cursor` for the next page; absent on the last. */
  next: z.string().optional(),
});
export type RunListPage = z.infer<typeof RunListPage>;
