import type { ApprovalGate } from './approval-gate';
import type { BudgetDesk } from './budget-desk';
import type { QuestionDesk } from './question-desk';
import type { StallQuestion } from './stall-question';
import type { SteeringInbox } from './steering-inbox';

/** Where people reach into a run: approvals, the agent's questions, steering, "continue?" when it stalls, and a paused budget. */
export interface People {
  gate: ApprovalGate;
  desk: QuestionDesk;
  inbox: SteeringInbox;
  stall: StallQuestion;
  budget: BudgetDesk;
}
