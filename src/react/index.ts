/**
 * `thoughtline/react`: React hooks for a front end of `thoughtline serve`. Browser code only: it
 * imports React and the server's wire types (types only), never the server.
 */
export { ThoughtlineProvider, useThoughtline, type ThoughtlineProviderProps } from './thoughtline-provider';
export { ThoughtlineClient, type ThoughtlineClientOptions } from './thoughtline-client';
export { DEFAULT_LIMITS, type ClientLimits } from './client-limits';
export { ThoughtlineApiError } from './thoughtline-api-error';
export { useChain } from './use-chain';
export { useRun, MIN_RUN_READ_MS } from './use-run';
export { useRuns } from './use-runs';
export { useApprovals } from './use-approvals';
export { useThread, MAX_THREAD_TURNS, type InterruptAnswer, type ThreadInterrupt, type ThreadTurn } from './use-thread';
export type { RunFeedState } from './run-feed';
export type { StreamState } from './follow-stream';
export type * from './api-types';
