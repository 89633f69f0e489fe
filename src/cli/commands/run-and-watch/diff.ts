import { compareChains } from '../../../domain/compare/chain-comparison';
import type { CommandSpec } from '../../spec/command-line';
import { flag, role, roleOption } from '../../spec/flags';
import { POLICY_OPTION, readPolicyOption, withPolicy } from '../../spec/policy-option';
import { renderComparison } from '../../render/render-comparison';
import { writeForStdout, writeSafe } from '../../render/terminal-safe';
import { connect } from '../../setup/runtime';

export const DIFF_COMMAND: CommandSpec = {
  name: 'diff',
  group: 'Run and watch',
  summary: 'two runs side by side, aligned by iteration, differences marked',
  description:
    "Compare two runs (a fork and its origin, two variants of an experiment, a run and its replay), each read in a role's view: how each ended and what it spent, then every iteration aligned by number, the same ones in one line and a differing one with what differs (thought, calls, arguments, results, model, cost) and both sides; then both answers when they differ.",
  examples: [
    'thoughtline diff agent-1 agent-1-fork-2',
    'thoughtline diff agent-1 agent-2 --json',
    'thoughtline diff agent-1 agent-2 --role end_user',
  ],
  args: [
    { name: '<run-a>', needs: 'two run ids (the agent-… ids run printed)' },
    { name: '<run-b>', needs: 'two run ids (the agent-… ids run printed)' },
  ],
  options: {
    json: flag('print the comparison as JSON'),
    role: roleOption('developer'),
    ...POLICY_OPTION,
  },
  run: async (l) => {
    const viewer = role(l, 'developer');
    const policy = await readPolicyOption(l);
    const c = await connect();
    const agents = withPolicy(c.agents, policy);
    try {
      // Both through the one read gate, in the same view: the comparison shows only what that view shows.
      const [a, b] = await Promise.all([agents.chain(l.args[0]!, viewer), agents.chain(l.args[1]!, viewer)]);
      // The end user's view has no spend: no cost or tokens, and a difference in cost alone is none.
      const comparison = compareChains(a, b, { spend: viewer !== 'end_user' });
      if (l.flag('json')) writeForStdout(`${JSON.stringify(comparison, null, 2)}\n`);
      else writeSafe(process.stdout, renderComparison(comparison));
    } finally {
      await agents.client.connection.close();
    }
    return 0;
  },
};
