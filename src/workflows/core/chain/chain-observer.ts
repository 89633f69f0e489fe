import type { ApprovalRecord, ChainStatus, ReasoningStep, SubAgentRun } from '../../../domain';

/** One change to a reasoning chain, as an observer outside the loop sees it. */
export type ChainChange =
  | { kind: 'step'; step: ReasoningStep }
  /** A recorded step gained a tag (its parallel group): the same step number, a newer version. */
  | { kind: 'step_amended'; step: ReasoningStep }
  | { kind: 'status' }
  | { kind: 'approval'; approval: ApprovalRecord }
  | { kind: 'sub_agent'; subAgent: SubAgentRun };

/** Where the chain stands right after a change: its status and its last step number. */
export interface ChainPosition {
  status: ChainStatus;
  stepNumber: number;
}

/**
 * Told of every change the ChainBuilder makes, synchronously, in order. Pure: an observer must
 * not change the chain, add commands or throw (the builder does not catch for it).
 */
export type ChainObserver = (change: ChainChange, at: ChainPosition) => void;
