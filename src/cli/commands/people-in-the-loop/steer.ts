import type { CommandSpec } from '../../spec/command-line';
import { decider, DECIDER_OPTIONS, RUN_ID } from '../../spec/flags';
import { steerRun } from './send-to-run';

export const STEER_COMMAND: CommandSpec = {
  name: 'steer',
  group: 'People in the loop',
  summary: 'add an instruction before the next thought',
  description: 'Add an instruction to an open run; the agent reads it before its next thought.',
  examples: ['thoughtline steer agent-1 "Use only 2024 data"'],
  args: [
    RUN_ID,
    { name: '"<instruction>"', needs: 'the instruction, e.g. thoughtline steer <run-id> "Use only 2024 data"' },
  ],
  extraArgsHint: 'put the instruction in quotes',
  options: DECIDER_OPTIONS,
  run: async (l) => {
    await steerRun(l.args[0]!, l.args[1]!, decider(l));
    return 0;
  },
};
