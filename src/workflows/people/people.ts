import type { ApprovalGate } from './approval-gate';
import type { QuestionDesk } from './question-desk';
import type { StallQuestion } from './stall-question';
import type { SteeringInbox } from './steering-inbox';

/** Where people reach into a run: approvals, the agent's questions, steering, and "continue?" when it stalls. */
export interface People {
  gate: ApprovalGate;
  desk: QuestionDesk;
  inbox: SteeringInbox;
  stall: StallQuestion;
}
