import { z } from 'zod';
import {
  ChainSource,
  ChainSummary,
  ChainTimeline,
  MAX_SEARCH_PAGE,
  MAX_SEARCH_TEXT,
  RunSearchResult,
  StepTypeName,
  StoredRunState,
  UsageReport,
} from '../../domain/store';
import { TerminationReason } from '../../domain/run/termination';

const Instant = z.iso.datetime({ offset: true }).transform((text) => new Date(text).toISOString());
const Name = z.string().min(1).max(200);
const Needle = z.string().min(1).max(MAX_SEARCH_TEXT);
const ViewQuery = z.string().optional();

/** `types=tool_call,tool_result`: a comma list of step types, each at most once. */
const StepTypes = z
  .string()
  .max(100)
  .transform((text) => [...new Set(text.split(',').map((part) => part.trim()))])
  .pipe(z.array(StepTypeName).min(1).max(4));

/** Where a chain read is answered from: `auto` (the store when it can, else Temporal), or one of them. */
export const ReadSource = z.enum(['store', 'temporal', 'auto']).default('auto');

/** The step filter of a chain read, as query fields. */
export const StepFilterQuery = {
  types: StepTypes.optional(),
  tool: Name.optional(),
  from: Instant.optional(),
  to: Instant.optional(),
  text: Needle.optional(),
};

const Flag = z.enum(['true', 'false']).transform((text) => text === 'true');

/** `details=true` ("Show details", journey 5): the read leaves out the caller's preferences, never the policy. */
export const DetailsQuery = Flag.default(false);

export const SourcedQuery = z.object({ view: ViewQuery, source: ReadSource, details: DetailsQuery }).strict();
const Cost = z.coerce.number().nonnegative().max(1e9);

/** `GET /v1/search`'s query: RunSearch as query fields; tenant and view come from the caller. */
export const SearchQuery = z
  .object({
    view: ViewQuery,
    details: DetailsQuery,
    agent: Name.optional(),
    tenant: Name.optional(),
    caller: Name.optional(),
    state: StoredRunState.optional(),
    reason: TerminationReason.optional(),
    tool: Name.optional(),
    text: Needle.optional(),
    minCostUsd: Cost.optional(),
    maxCostUsd: Cost.optional(),
    startedAfter: Instant.optional(),
    startedBefore: Instant.optional(),
    includeSubAgents: Flag.default(false),
    limit: z.coerce.number().int().min(1).max(MAX_SEARCH_PAGE).default(20),
    cursor: z.string().max(500).optional(),
  })
  .strict();

export const UsageQuery = z
  .object({ from: Instant.optional(), to: Instant.optional(), agent: Name.optional() })
  .strict();

export const SummaryResponse = ChainSummary.extend(ChainSource.shape);
export const TimelineResponse = ChainTimeline.extend(ChainSource.shape);
export const SearchResponse = RunSearchResult;
export const UsageResponse = UsageReport;
