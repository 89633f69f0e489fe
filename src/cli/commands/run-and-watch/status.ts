import type { CommandSpec } from '../../spec/command-line';
import { flag, role, roleOption, RUN_ID } from '../../spec/flags';
import { printStatus } from '../../reading/inspect';

export const STATUS_COMMAND: CommandSpec = {
  name: 'status',
  group: 'Run and watch',
  summary: "a run's state, spend, plan and the calls awaiting approval",
  description:
    "Print a run's state, iteration, tokens, cost, what it waits for, its plan, sub-agents and the calls awaiting approval (its sub-agents' included), in a role's view (default developer: sensitive fields redacted).",
  examples: ['thoughtline status agent-1', 'thoughtline status agent-1 --json --role end_user'],
  args: [RUN_ID],
  options: { json: flag('print the status record as JSON'), role: roleOption('developer') },
  run: async (l) => {
    await printStatus(l.args[0]!, l.flag('json'), role(l, 'developer'));
    return 0;
  },
};
