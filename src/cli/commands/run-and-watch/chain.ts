import { MAX_CHAIN_PAGE_STEPS } from '../../../domain/chain/chain-page';
import type { CommandSpec } from '../../spec/command-line';
import { flag, positiveInteger, role, roleOption, RUN_ID, text } from '../../spec/flags';
import { POLICY_OPTION, readPolicyOption } from '../../spec/policy-option';
import { UsageError } from '../../spec/usage-error';
import { CHAIN_STORE_OPTIONS, chainStoreRead, printChainRead } from '../../reading/chain-read';
import { printChainAsOf } from '../../reading/fork-run';
import { printChain } from '../../reading/inspect';

export const CHAIN_COMMAND: CommandSpec = {
  name: 'chain',
  group: 'Run and watch',
  summary: "a run's reasoning chain in a role's view",
  description:
    "Print a run's reasoning chain in a role's view. Read from the chain store when it has the run (THOUGHTLINE_STORE, or .thoughtline/store.sqlite if there), else from Temporal.",
  examples: ['thoughtline chain agent-1 --role end_user', 'thoughtline chain agent-1 --summary --tool get_weather'],
  args: [RUN_ID],
  options: {
    json: flag('print the chain as JSON'),
    role: roleOption('developer'),
    expand: flag("also print each sub-agent's chain under its result"),
    'after-step': text('N', 'print the page of steps after step N'),
    limit: text('N', `the most steps of a page (up to ${MAX_CHAIN_PAGE_STEPS})`),
    'as-of': text('N', 'the chain, spend and plan as they stood at step N'),
    ...CHAIN_STORE_OPTIONS,
    ...POLICY_OPTION,
  },
  run: async (l) => {
    const storeRead = chainStoreRead(l);
    const policy = await readPolicyOption(l);
    const withPolicy = policy ? { policy } : {};
    if (l.text('as-of') !== undefined) {
      if (l.flag('expand') || l.text('after-step') !== undefined || l.text('limit') !== undefined || storeRead)
        throw new UsageError(
          '--as-of prints the whole chain as it stood; it does not take --expand, --after-step, --limit, --summary or filters.',
        );
      await printChainAsOf(l.args[0]!, positiveInteger(l, 'as-of')!, {
        json: l.flag('json'),
        role: role(l, 'developer'),
        ...withPolicy,
      });
      return 0;
    }
    const afterStep = positiveInteger(l, 'after-step');
    const limit = positiveInteger(l, 'limit', MAX_CHAIN_PAGE_STEPS);
    const page =
      afterStep !== undefined || limit !== undefined
        ? { ...(afterStep !== undefined ? { afterStep } : {}), ...(limit !== undefined ? { limit } : {}) }
        : undefined;
    if (page && l.flag('expand'))
      throw new UsageError('--expand prints whole chains; it does not take --after-step or --limit.');
    if (l.flag('expand')) {
      if (storeRead) throw new UsageError('--expand prints whole chains; it does not take --summary or filters.');
      await printChain(l.args[0]!, { json: l.flag('json'), role: role(l, 'developer'), expand: true, ...withPolicy });
      return 0;
    }
    await printChainRead(l.args[0]!, {
      json: l.flag('json'),
      role: role(l, 'developer'),
      ...(page ? { page } : {}),
      ...storeRead,
      ...withPolicy,
    });
    return 0;
  },
};
