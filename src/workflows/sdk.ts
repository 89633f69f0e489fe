/**
 * What a user's own workflow file imports to wrap Thoughtline's loop (sandbox-safe): the loop,
 * the stop predicates, and the run's messages.
 */
export { runAgent, type RunAgentOptions } from './run/run-agent';
export {
  allOf,
  anyOf,
  hasObservationMatching,
  hasToolCall,
  isIterationCount,
  isStepCount,
  type LoopView,
  type StopPredicate,
} from './loop/stop-conditions';
export {
  cancelSignal,
  chainQuery,
  resolveStallUpdate,
  statusQuery,
  type CancelRequest,
  type StallDecision,
} from './messages';
// Types only (erased from the bundle): what a workflow around runAgent takes and returns.
export type { AgentInputInit, AgentResult } from '../domain';
