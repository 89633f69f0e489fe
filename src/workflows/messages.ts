import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AgentStatus, ReasoningChain } from '../shared';

/** The live reasoning chain of a run (also served after it ended). */
export const chainQuery = defineQuery<ReasoningChain>('chain');
/** A small status record, cheap to poll. */
export const statusQuery = defineQuery<AgentStatus>('status');

export interface CancelRequest {
  reason?: string;
  /** Who asked, for the chain. */
  by?: string;
}
/**
 * Graceful stop: the current step may finish (within `cancelGraceMs`), then the run summarises
 * and returns `cancelled`. Temporal's own cancel (`handle.cancel()`) also returns `cancelled`,
 * without the summary call.
 */
export const cancelSignal = defineSignal<[CancelRequest]>('cancel');

export interface StallDecision {
  continue: boolean;
  by?: string;
  note?: string;
}
/** Answers a stalled run's "continue?" question (`onStall: 'ask'`). Refused when none is pending. */
export const resolveStallUpdate = defineUpdate<string, [StallDecision]>('resolveStall');
