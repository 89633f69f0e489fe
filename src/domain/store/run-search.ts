import { z } from 'zod';
import { TerminationReason } from '../run/termination';
import { StoredRun, StoredRunState } from './stored-run';
import { MAX_SEARCH_TEXT } from './step-filter';

/** Most runs one page of a search returns. */
export const MAX_SEARCH_PAGE = 100;

/**
 * A search across runs. Every filter narrows; none widens: the caller's tenant and view are
 * applied by the reader from their identity, never taken from here (`tenant` here can only
 * narrow to the caller's own). `state` is the ending's state (a run that ended with `failure` is
 * `failed`); `reason` its termination reason. `tool` matches a run that called it; `text` a run
 * whose task, or a step's text (arguments, results, thoughts, answers), contains it, as the
 * caller's view shows that step.
 */
export const RunSearch = z
  .object({
    agent: z.string().min(1).max(200).optional(),
    tenant: z.string().min(1).max(200).optional(),
    caller: z.string().min(1).max(200).optional(),
    state: StoredRunState.optional(),
    reason: TerminationReason.optional(),
    tool: z.string().min(1).max(200).optional(),
    text: z.string().min(1).max(MAX_SEARCH_TEXT).optional(),
    minCostUsd: z.number().nonnegative().optional(),
    maxCostUsd: z.number().nonnegative().optional(),
    startedAfter: z.iso.datetime({ offset: true }).optional(),
    startedBefore: z.iso.datetime({ offset: true }).optional(),
    /** Runs of a tree: only root runs (default) or sub-agents too. */
    includeSubAgents: z.boolean().default(false),
    limit: z.number().int().min(1).max(MAX_SEARCH_PAGE).default(20),
    /** Opaque, from the previous page's `next`. */
    cursor: z.string().max(500).optional(),
  })
  .strict();
export type RunSearch = z.infer<typeof RunSearch>;
export type RunSearchInput = z.input<typeof RunSearch>;

/** One run found, newest first; `matches` names up to 5 steps whose text matched `text`. */
export const RunSearchHit = z.object({
  run: StoredRun,
  matches: z.array(z.object({ stepNumber: z.number().int().positive(), excerpt: z.string() })).max(5),
});
export type RunSearchHit = z.infer<typeof RunSearchHit>;

export const RunSearchResult = z.object({
  hits: z.array(RunSearchHit),
  /** Pass as `cursor` for the next page; absent on the last. */
  next: z.string().optional(),
  /** Where the answer came from: searches need the store. */
  source: z.literal('store'),
});
export type RunSearchResult = z.infer<typeof RunSearchResult>;
