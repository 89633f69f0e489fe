import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';

/** A workflow task that waits this long has no worker taking it (a live one starts it in milliseconds). */
export const STALL_AFTER_MS = 10_000;
const CHECK_EVERY_MS = 2_000;

const SCHEDULED = temporal.api.enums.v1.PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_SCHEDULED;

/**
 * While a run is followed, checks that its workflow tasks are being taken: the task queue's
 * pollers include workers that stopped up to a minute ago, so only a task left waiting shows
 * that nobody serves the run. Calls `onStall` once per stall with how long the task has waited
 * and the run's task queue. Returns a function that stops the checks and resolves once a check
 * under way has settled, so the caller may close the Temporal connection next.
 */
export function watchForStall(
  client: Client,
  workflowId: string,
  onStall: (stall: { waitedMs: number; taskQueue: string }) => void,
  stallAfterMs = STALL_AFTER_MS,
): () => Promise<void> {
  let reported: string | undefined;
  const check = async (): Promise<void> => {
    // Under a deadline, so stopping never waits longer than one period for a check.
    const { raw, taskQueue } = await client.connection.withDeadline(Date.now() + CHECK_EVERY_MS, () =>
      client.workflow.getHandle(workflowId).describe(),
    );
    const task = raw.pendingWorkflowTask;
    const since = task?.originalScheduledTime ?? task?.scheduledTime;
    if (!task || task.state !== SCHEDULED || !since) return;
    const key = `${since.seconds}.${since.nanos}`;
    const waitedMs = Date.now() - Number(since.seconds ?? 0) * 1_000 - Math.floor((since.nanos ?? 0) / 1e6);
    if (waitedMs < stallAfterMs || reported === key) return;
    reported = key;
    onStall({ waitedMs, taskQueue });
  };
  // A failed check (a server hiccup) is skipped: the watch is a courtesy, never the cause of a failure.
  let checking: Promise<void> | undefined;
  const timer = setInterval(() => {
    checking ??= check()
      .catch(() => undefined)
      .finally(() => (checking = undefined));
  }, CHECK_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await checking;
  };
}
