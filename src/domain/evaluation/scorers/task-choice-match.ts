import type { Score } from '../case-result';
import type { ScoringFacts } from '../scoring-facts';
import { verdict } from './score';

export const TASK_CHOICE = 'task_choice';

/** A case's `expect.taskChoice`: the task a planned run started first when it had a choice, and who chose it. */
export interface TaskChoiceExpectation {
  taskId: string;
  chosenBy?: 'model' | 'plan_order';
}

/**
 * Judges the run's first real choice: the first `task_choice` step with other tasks ready too. A
 * single ready task is no choice, so those steps are passed over. A refused model choice counts as
 * plan order, which is what started the task.
 */
export function taskChoiceMatch(expected: TaskChoiceExpectation, facts: ScoringFacts): Score {
  const choice = facts.taskChoices.find((c) => c.alternatives > 0);
  if (!choice)
    return verdict(TASK_CHOICE, false, `no choice among ready tasks was made; expected ${expectedText(expected)}`);
  const passed = choice.taskId === expected.taskId && (!expected.chosenBy || choice.chosenBy === expected.chosenBy);
  const refused = choice.refused
    ? ` (the model's ${choice.refused.taskId} was refused: ${choice.refused.problem})`
    : '';
  const made = `started ${choice.taskId}, chosen by ${choice.chosenBy === 'model' ? 'the model' : 'plan order'}${refused}`;
  return verdict(TASK_CHOICE, passed, passed ? `${made}, as expected` : `${made}; expected ${expectedText(expected)}`);
}

function expectedText({ taskId, chosenBy }: TaskChoiceExpectation): string {
  return chosenBy ? `${taskId}, chosen by ${chosenBy === 'model' ? 'the model' : 'plan order'}` : taskId;
}
