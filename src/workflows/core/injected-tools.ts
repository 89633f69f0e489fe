import type { AgentInput } from '../../shared';

/**
 * The tools Thoughtline adds to every run's registered ones, with the input option that names
 * each: finish and give up always, the question tool when questions are allowed, the task
 * update tool when the run plans. The one list the prompt, the validator and the name-clash
 * check read.
 */
export function injectedToolNames(input: AgentInput): Array<{ name: string; option: string }> {
  return [
    { name: input.finishToolName, option: 'finishToolName' },
    { name: input.giveUpToolName, option: 'giveUpToolName' },
    ...(input.allowQuestions ? [{ name: input.questionToolName, option: 'questionToolName' }] : []),
    ...(input.planning ? [{ name: input.planning.updateToolName, option: 'planning.updateToolName' }] : []),
  ];
}
