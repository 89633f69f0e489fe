import type { AgentInput } from '../../domain';

/** The input option that names an injected tool. */
export type InjectedToolOption = 'finishToolName' | 'giveUpToolName' | 'questionToolName' | 'planning.updateToolName';

/**
 * The tools Thoughtline adds to every run's registered ones, with the input option that names
 * each: finish and give up always, the question tool when questions are allowed, the task
 * update tool when the run plans. The one list the prompt, the validator and the name-clash
 * check read.
 */
export function injectedToolNames(input: AgentInput): Array<{ name: string; option: InjectedToolOption }> {
  return [
    { name: input.finishToolName, option: 'finishToolName' as const },
    { name: input.giveUpToolName, option: 'giveUpToolName' as const },
    ...(input.allowQuestions ? [{ name: input.questionToolName, option: 'questionToolName' as const }] : []),
    ...(input.planning ? [{ name: input.planning.updateToolName, option: 'planning.updateToolName' as const }] : []),
  ];
}
