import type { CommandSpec } from '../../spec/command-line';
import { flag, RUN_ID, text } from '../../spec/flags';
import { userInfo } from 'node:os';
import { cancelSignal } from '../../../workflows/messages';
import { connect } from '../../setup/runtime';
import { sendToOpenRun } from '../people-in-the-loop/require-open-run';

/**
 * `cancel <id>`: the `cancel` signal (graceful: the current step finishes, then a summary), or
 * with `hard` Temporal's own cancellation (in-flight work is cancelled at once). Either way the
 * run returns a result with reason `cancelled`. A run that has ended is refused.
 */
export async function cancelRun(workflowId: string, options: { reason?: string; hard: boolean }): Promise<void> {
  const { agents } = await connect();
  try {
    const handle = agents.getHandle(workflowId);
    await sendToOpenRun(agents, workflowId, 'cancel', async () => {
      if (options.hard) await handle.cancel();
      else
        await handle.signal(cancelSignal, {
          by: userInfo().username,
          ...(options.reason ? { reason: options.reason } : {}),
        });
    });
    process.stdout.write(
      `${options.hard ? 'Cancellation requested through Temporal' : 'Cancel signal sent'} for ${workflowId}; follow it with: thoughtline watch ${workflowId}\n`,
    );
  } finally {
    await agents.client.connection.close();
  }
}

export const CANCEL_COMMAND: CommandSpec = {
  name: 'cancel',
  group: 'Run and watch',
  summary: 'stop a run: it finishes its step, summarises and ends',
  description:
    'Stop a run: it finishes the current step, summarises and returns "cancelled"; --hard cancels it through Temporal at once.',
  examples: ['thoughtline cancel agent-1 --reason "changed my mind"'],
  args: [RUN_ID],
  options: { reason: text('TEXT', 'why, recorded in the chain'), hard: flag('cancel through Temporal at once') },
  run: async (l) => {
    const reason = l.text('reason');
    await cancelRun(l.args[0]!, { hard: l.flag('hard'), ...(reason ? { reason } : {}) });
    return 0;
  },
};
