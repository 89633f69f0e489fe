import type { CommandSpec } from '../../spec/command-line';
import { decider, flag, DECIDER_OPTIONS, RUN_ID, text } from '../../spec/flags';
import { UsageError } from '../../spec/usage-error';
import { decideCall } from './decide-call';

export const REJECT_COMMAND: CommandSpec = {
  name: 'reject',
  group: 'People in the loop',
  summary: 'reject a call awaiting approval, with the reason',
  description:
    "Reject a call awaiting approval (the only one if no call id is given); the agent reads the reason to decide what to do instead. It shows the call and asks y/N first. Signed with the server's keyring when one is at hand (--signing-keys), the run counts --roles; without one they are claimed only, and a call that needs an approver role refuses them.",
  examples: ['thoughtline reject agent-1 --reason "not now"'],
  args: [RUN_ID, { name: '[callId]' }],
  options: {
    reason: text('TEXT', 'why: the agent reads it (required)'),
    yes: flag('no question, for scripts', { short: 'y' }),
    ...DECIDER_OPTIONS,
  },
  run: async (l) => {
    const reason = l.text('reason')?.trim();
    if (!reason) throw new UsageError('"reject" needs --reason TEXT: the agent reads it to decide what to do instead.');
    await decideCall(l.args[0]!, l.args[1], { approved: false, yes: l.flag('yes'), ...decider(l), reason });
    return 0;
  },
};
