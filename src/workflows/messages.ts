import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AgentStatus, AnswerRequest, ApprovalDecision, ApprovalRecord, ReasoningChain, SteeringInstruction, ViewerRole } from '../shared';

/** The live reasoning chain of a run, in a role's view (default `developer`); also served after it ended. */
export const chainQuery = defineQuery<ReasoningChain, [ViewerRole?]>('chain');
/** A small status record, cheap to poll, in a role's view (default `developer`, as for `chain`). */
export const statusQuery = defineQuery<AgentStatus, [ViewerRole?]>('status');

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

/** A person's decision on a tool call waiting for approval; the validator refuses stale or unauthorised ones. */
export const approveToolCallUpdate = defineUpdate<ApprovalRecord, [ApprovalDecision]>('approveToolCall');

/** The instruction joins the conversation before the next thought. */
export type SteerRequest = SteeringInstruction;
/** Adds a person's instruction to the conversation before the next thought (a visible step). */
export const steerSignal = defineSignal<[SteerRequest]>('steer');

/** Answers the question the agent asked a person; refused when none is open. */
export const answerUpdate = defineUpdate<string, [AnswerRequest]>('answer');

/** A sub-agent's report to its parent: the calls its tree waits on (sent whenever the list changes). */
export interface SubAgentApprovals {
  workflowId: string;
  pending: ApprovalRecord[];
}
export const subAgentApprovalsSignal = defineSignal<[SubAgentApprovals]>('subAgentApprovals');
