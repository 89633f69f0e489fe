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
export type { Actor } from './actor';
export { AgentInputConflictError } from './agent-input-conflict-error';
export type { AgentRunListing } from './runs-of-agent';
export type { AgentTreeNode } from './agent-tree';
export { billableActions, type BillableActions } from './billable-actions';
export type { ExpandedChain } from './expanded-chain';
export { ForkError } from './fork/fork-error';
export type { ForkOptions } from './fork/fork-run';
export type { ForkChange, PlannedFork } from './fork/plan-fork';
export { chainAsOf, type ChainAsOf } from './fork/chain-as-of';
export type { LiveDelta } from './live-replies';
export { ensureSearchAttributes } from './search-attributes-setup';
export { SearchAttributesNotVisibleError } from '../dev-server/search-attributes-not-visible-error';
export type { StartRetry } from './retry-unknown-search-attribute';
export { UpdateRefusedError } from './update-refused-error';
export { readThread, sendThreadTurn, threadWorkflowId } from './threads/thread-client';
export type {
  ThreadStartInit,
  ThreadTurnReceipt,
  ThreadTurnRequest,
  ThreadView,
} from '../shared/threads/thread-schemas';
export { UnknownRunError } from './unknown-run-error';
export type { ScoreInit } from './run-scores';
export type { AddRunScoreResult, RunScore } from '../shared/run-scores';
export type { ForgetMemoryInit, MemoryOwner } from './agent-memory';
export type { ForgetMemoryResult, MemoryEntry } from '../shared/planning/agent-memory';
