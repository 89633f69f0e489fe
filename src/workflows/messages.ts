import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ChainPage } from '../domain/chain/chain-page';
import type { ViewLens } from '../domain/visibility/view-lens';
import { StallDecision, SubAgentApprovals } from '../domain/run/run-message-payloads';
import type {
  AgentStatus,
  AnswerRequest,
  ApprovalDecision,
  ApprovalRecord,
  BudgetRaise,
  ModelContext,
  ModelMessage,
  ReasoningChain,
  SteeringInstruction,
  ViewerRole,
} from '../domain';

/** Longest `reason` or `by` of a cancel request kept; longer ones are cut with a marker. */
export const MAX_CANCEL_TEXT_CHARS = 1_000;

/**
 * The reasoning chain of this Temporal run, in a role's view (default `developer`); also served
 * after it ended. A page (`afterStep`, `limit`) keeps the answer small. A long run's chain starts
 * with the latest steps it carried; `earlier` says where the rest are (AgentClient.chain joins them).
 * `lens` (`resolveViewLens` of the organisation's visibility policy) narrows the view; one that
 * does not parse fails the query.
 */
export const chainQuery = defineQuery<ReasoningChain, [ViewerRole?, ChainPage?, ViewLens?]>('chain');
/**
 * The whole conversation of a model call this run sent, by its chained hash (null when it sent
 * none with that hash): how a worker that lacks a call's earlier messages gets them. Internal.
 */
export const modelConversationQuery = defineQuery<ModelMessage[] | null, [hash?: unknown]>('modelConversation');
/** The system prompt and tools a model call named by hash (`context`), for a worker that lacks them; null when unknown. Internal. */
export const modelContextQuery = defineQuery<ModelContext | null, [hash?: unknown]>('modelContext');
/** A small status record, cheap to poll, in a role's view (default `developer`, as for `chain`), narrowed by `lens` as `chain` is. */
export const statusQuery = defineQuery<AgentStatus, [ViewerRole?, ViewLens?]>('status');

export interface CancelRequest {
  reason?: string;
  /** Who asked, for the chain. */
  by?: string;
}
/** What the `cancel` handler accepts (run-message-payloads.ts, with the other payload schemas). */
export { CancelRequestSchema } from '../domain/run/run-message-payloads';
/**
 * Graceful stop: the current step may finish (within `cancelGraceMs`), then the run summarises
 * and returns `cancelled`. Temporal's own cancel (`handle.cancel()`) also returns `cancelled`,
 * without the summary call.
 */
export const cancelSignal = defineSignal<[CancelRequest]>('cancel');

export { StallDecision };
/** Answers a stalled run's "continue?" question (`onStall: 'ask'`). Refused when none is pending. */
export const resolveStallUpdate = defineUpdate<string, [StallDecision]>('resolveStall');

/** A person's decision on a tool call waiting for approval; the validator refuses stale or unauthorised ones. */
export const approveToolCallUpdate = defineUpdate<ApprovalRecord, [ApprovalDecision]>('approveToolCall');

/**
 * Raises a paused budget (`onBudget: 'ask'`) by tokens, USD or iterations, or stops the run; the
 * validator refuses it when the run is not paused, or for amounts, roles or signatures it cannot accept.
 */
export const raiseBudgetUpdate = defineUpdate<string, [BudgetRaise]>('raiseBudget');

/** The instruction joins the conversation before the next thought. */
export type SteerRequest = SteeringInstruction;
/** Adds a person's instruction to the conversation before the next thought (a visible step). */
export const steerSignal = defineSignal<[SteerRequest]>('steer');

/** Answers the question the agent asked a person; refused when none is open. */
export const answerUpdate = defineUpdate<string, [AnswerRequest]>('answer');

/** A sub-agent's report to its parent: the calls its tree waits on (sent whenever the list changes). */
export { SubAgentApprovals };
export const subAgentApprovalsSignal = defineSignal<[SubAgentApprovals]>('subAgentApprovals');
