import type { CommandSpec } from '../../spec/command-line';
import { flag, RUN_ID } from '../../spec/flags';
import { POLICY_OPTION, readPolicyOption } from '../../spec/policy-option';
import { watchRun } from '../../reading/inspect';

export const WATCH_COMMAND: CommandSpec = {
  name: 'watch',
  group: 'Run and watch',
  summary: "follow a run's steps until it ends",
  description: "Follow a run's steps until it ends; a run that has ended prints every step, then its outcome.",
  examples: ['thoughtline watch agent-1 --dashboard'],
  args: [RUN_ID],
  options: {
    dashboard: flag(
      'redraw one screen instead (goal, iteration, plan, thought, action, sub-agents, cost) on a terminal of 60+ columns',
    ),
    ...POLICY_OPTION,
  },
  run: async (l) => {
    const policy = await readPolicyOption(l);
    return (await watchRun(l.args[0]!, { dashboard: l.flag('dashboard'), ...(policy ? { policy } : {}) })) ? 0 : 1;
  },
};
