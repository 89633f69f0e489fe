import type { CommandSpec } from '../../spec/command-line';
import { flag, RUN_ID } from '../../spec/flags';
import { printTree } from '../../reading/inspect';

export const TREE_COMMAND: CommandSpec = {
  name: 'tree',
  group: 'Run and watch',
  summary: 'a run and its sub-agents, recursively',
  description:
    'Print the run and its sub-agents, recursively: state, iterations, tokens, cost, budgets, plan and pending approvals.',
  examples: ['thoughtline tree agent-1'],
  args: [RUN_ID],
  options: { json: flag('print the tree as JSON') },
  run: async (l) => {
    await printTree(l.args[0]!, l.flag('json'));
    return 0;
  },
};
