import type { ApprovalGate } from './approval-gate';
import type { BudgetDesk } from './budget-desk';
import type { DecisionSignatures } from './decision-signatures';
import type { QuestionDesk } from './question-desk';
import type { StallQuestion } from './stall-question';
import type { SteeringInbox } from './steering-inbox';

/** Where people reach into a run: approvals, the agent's questions, steering, "continue?" when it stalls, a paused budget, and the signatures on their decisions. */
export interface People {
  gate: ApprovalGate;
  desk: QuestionDesk;
  inbox: SteeringInbox;
  stall: StallQuestion;
  budget: BudgetDesk;
  /** The run's signed-decision policy and the signed decisions it accepted (carried through continue-as-new). */
  signatures: DecisionSignatures;
}
