// The client library: what a client script imports (through the package's index). Nothing here
// imports the CLI, the server or audit (test/unit/import-rules).
export {
  AgentClient,
  type AgentClientOptions,
  type AgentHandle,
  type Decision,
  type FollowOptions,
  type StartOptions,
  type WatchEvent,
} from './agent-client';
export type { Actor } from './decisions/actor';
export { AgentInputConflictError } from './errors/agent-input-conflict-error';
export type { AgentRunListing } from './runs/runs-of-agent';
export type { ExperimentReportOptions } from './runs/experiment-runs';
export type { ExperimentReport, ExperimentVariantSummary } from '../domain/evaluation/experiment-report';
export type { AgentTreeNode } from './chain/agent-tree';
export { billableActions, type BillableActions } from './runs/billable-actions';
export type { ExpandedChain } from './chain/expanded-chain';
export { ForkError } from './fork/fork-error';
export type { ForkOptions } from './fork/fork-run';
export type { ForkChange, PlannedFork } from './fork/plan-fork';
export { chainAsOf, type ChainAsOf } from './fork/chain-as-of';
export type { LiveDelta } from './chain/live-replies';
export { ensureSearchAttributes } from './start/search-attributes-setup';
export { SearchAttributesNotVisibleError } from '../dev-server/probes/search-attributes-not-visible-error';
export type { StartRetry } from './start/retry-unknown-search-attribute';
export { UpdateRefusedError } from './errors/update-refused-error';
export { readThread, sendThreadTurn, threadWorkflowId } from './threads/thread-client';
export type {
  ThreadStartInit,
  ThreadTurnReceipt,
  ThreadTurnRequest,
  ThreadView,
} from '../domain/threads/thread-schemas';
export { UnknownRunError } from './errors/unknown-run-error';
export { ReservedRunIdError } from './errors/reserved-run-id-error';
export type { ScoreInit } from './runs/run-scores';
export type { AddRunScoreResult, RunScore } from '../domain/evaluation/run-scores';
export type { ForgetMemoryInit, MemoryOwner } from './agent-memory';
export type { ForgetMemoryResult, MemoryEntry } from '../domain/planning/agent-memory';
// Temporal Schedules of an agent (docs/schedules-and-triggers.md).
export {
  createSchedule,
  deleteSchedule,
  describeSchedule,
  listSchedules,
  pauseSchedule,
  triggerSchedule,
  type ScheduleOwner,
} from './schedules/agent-schedules';
export { OVERLAP_POLICIES, type ScheduleInit, type ScheduleRecord } from './schedules/schedule-spec';
export { ScheduleExistsError, ScheduleNotFoundError, ScheduleRefusedError } from './errors/schedule-errors';
// What started a run (a schedule, a webhook delivery), from its memo; outside the workflow bundle, which never reads it.
export { ORIGIN_MEMO_KEY, originOfMemo, originText, RunOrigin } from '../domain/run/run-origin';
