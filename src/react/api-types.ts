/**
 * The wire types the hooks read, inferred from the server's own zod schemas (the ones the OpenAPI
 * document is generated from). Type-only imports: nothing of the server reaches a browser bundle.
 */
import type { z } from 'zod';
import type {
  ApprovalBody,
  ListRunsQuery,
  ListRunsResponse,
  RunStatusResponse,
  RunSummary,
} from '../server/api-schemas';
import type { ApprovalRecord } from '../domain/approval/approval';
import type { ChainStatus, ReasoningStep } from '../domain/chain/chain';
import type { RunEnding } from '../domain/run/run-ending';
import type { RunEvent } from '../domain/run/run-event';

export type RunStatus = z.infer<typeof RunStatusResponse>;
export type RunListItem = z.infer<typeof RunSummary>;
export type RunList = z.infer<typeof ListRunsResponse>;
/** `GET /v1/runs` filters, as the caller writes them (pageSize optional). */
export type RunsFilter = Partial<z.input<typeof ListRunsQuery>>;
export type ApprovalDecisionBody = z.input<typeof ApprovalBody>;
export type { ApprovalRecord, ChainStatus, ReasoningStep, RunEnding };
/** `end` as `/v1/runs/{id}/events` sends it: the ending in the watcher's view. */
export type RunEndEvent = Extract<RunEvent, { type: 'end' }>;
