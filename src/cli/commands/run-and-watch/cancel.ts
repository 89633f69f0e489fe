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
