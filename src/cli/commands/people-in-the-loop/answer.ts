import type { CommandSpec } from '../../spec/command-line';
import { decider, DECIDER_OPTIONS, RUN_ID } from '../../spec/flags';
import { answerRun } from './send-to-run';

export const ANSWER_COMMAND: CommandSpec = {
  name: 'answer',
  group: 'People in the loop',
  summary: 'answer the question the agent asked',
  description: 'Answer the question a run asked (a run started to allow questions offers its agent the tool to ask).',
  examples: ['thoughtline answer agent-1 "Paris"'],
  args: [RUN_ID, { name: '"<text>"', needs: 'the answer text, e.g. thoughtline answer <run-id> "2024"' }],
  extraArgsHint: 'put the answer in quotes',
  options: DECIDER_OPTIONS,
  run: async (l) => {
    await answerRun(l.args[0]!, l.args[1]!, decider(l));
    return 0;
  },
};
