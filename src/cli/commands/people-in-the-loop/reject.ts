import type { CommandSpec } from '../../spec/command-line';
import { flag, person, PERSON_OPTIONS, RUN_ID, text } from '../../spec/flags';
import { UsageError } from '../../spec/usage-error';
import { decideCall } from './decide-call';

export const REJECT_COMMAND: CommandSpec = {
  name: 'reject',
  group: 'People in the loop',
  summary: 'reject a call awaiting approval, with the reason',
  description:
    'Reject a call awaiting approval (the only one if no call id is given); the agent reads the reason to decide what to do instead. It shows the call and asks y/N first.',
  examples: ['thoughtline reject agent-1 --reason "not now"'],
  args: [RUN_ID, { name: '[callId]' }],
  options: {
    reason: text('TEXT', 'why: the agent reads it (required)'),
    yes: flag('no question, for scripts', { short: 'y' }),
    ...PERSON_OPTIONS,
  },
  run: async (l) => {
    const reason = l.text('reason')?.trim();
    if (!reason) throw new UsageError('"reject" needs --reason TEXT: the agent reads it to decide what to do instead.');
    await decideCall(l.args[0]!, l.args[1], { approved: false, yes: l.flag('yes'), ...person(l), reason });
    return 0;
  },
};
