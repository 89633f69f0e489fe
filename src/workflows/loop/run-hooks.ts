import type { TerminationReason } from '../../shared';
import type { ApprovalGate } from '../people/approval-gate';
import type { QuestionDesk } from '../people/question-desk';
import type { SteeringInbox } from '../people/steering-inbox';
import type { StopPredicate } from './stop-conditions';
import type { SubAgentTree } from '../delegation/sub-agent-tree';

export interface RunOutcome {
  reason: TerminationReason;
  answer: string;
  error?: string;
}

/** Thrown out of the loop between iterations; the workflow carries the state into a new run. */
export class ContinueAsNewRequested {}

/**
 * Reports progress. `details` refreshes only the Web UI's markdown (no history event), so it can
 * run on every step; `all` also upserts search attributes, an event each, so only once per turn.
 */
export type ProgressHook = (scope: 'details' | 'all') => void;

/** What the loop needs from the workflow around it; all deterministic. */
export interface RunHooks {
  onProgress: ProgressHook;
  /** Checked between iterations: hand over to a fresh run now? */
  shouldContinueAsNew(): boolean;
  /** Asks a person whether a stalled run should go on; undefined when nobody answered in time. */
  askToContinue(question: string): Promise<{ continue: boolean; by?: string; note?: string } | undefined>;
  stopWhen: readonly StopPredicate[];
  /** Approvals, questions and steering: where people reach into the run. */
  people: { gate: ApprovalGate; desk: QuestionDesk; inbox: SteeringInbox };
  /** The child runs below this one, and the approvals they wait for. */
  tree: SubAgentTree;
}
