import type { CommandSpec } from '../../spec/command-line';
import { decider, flag, DECIDER_OPTIONS, RUN_ID, text } from '../../spec/flags';
import { decideCall } from './decide-call';

export const APPROVE_COMMAND: CommandSpec = {
  name: 'approve',
  group: 'People in the loop',
  summary: 'approve a call awaiting approval',
  description:
    "Approve a call awaiting approval (the only one if no call id is given), naming the run that waits or any run above it. It shows the call and asks y/N first. Signed with the server's keyring when one is at hand (--signing-keys), the run counts --roles; without one they are claimed only, and a call that needs an approver role refuses them.",
  examples: [
    'thoughtline approve agent-1 --as alice --roles ops --note "looks right"',
    'thoughtline approve agent-1 toolu_1 --yes',
  ],
  args: [RUN_ID, { name: '[callId]' }],
  options: {
    note: text('TEXT', 'a note kept with the decision'),
    'mark-done': flag('mark the call done without running it (with --result)'),
    result: text('TEXT', 'the result to record for a call marked done'),
    yes: flag('no question, for scripts', { short: 'y' }),
    ...DECIDER_OPTIONS,
  },
  run: async (l) => {
    const note = l.text('note');
    const result = l.text('result');
    await decideCall(l.args[0]!, l.args[1], {
      approved: true,
      yes: l.flag('yes'),
      ...decider(l),
      ...(note ? { reason: note } : {}),
      ...(l.flag('mark-done') ? { markDone: true } : {}),
      ...(result !== undefined ? { result } : {}),
    });
    return 0;
  },
};
