import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';

/**
 * The server keeps a queue's pollers for minutes after they stop; a live worker polls again at
 * least every long-poll (about a minute), so an older entry is a worker that has gone.
 */
const LIVE_POLLER_AGE_MS = 90_000;

/** Identities of the workers polling `taskQueue` for workflow tasks now, per the server. */
export async function workflowPollers(client: Client, taskQueue: string): Promise<string[]> {
  const { pollers } = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
  });
  const now = Date.now();
  return (pollers ?? [])
    .filter((p) => {
      const seconds = Number(p.lastAccessTime?.seconds ?? 0);
      return seconds === 0 || now - seconds * 1_000 < LIVE_POLLER_AGE_MS;
    })
    .map((p) => p.identity ?? 'unknown worker');
}

/** Default wait for a worker that is starting at the same moment as the command. */
export const WORKER_GRACE_MS = 3_000;

/**
 * Whether some worker polls `taskQueue`, waiting up to `graceMs` for one that is just starting.
 * Never waits longer than the grace (plus one server round trip).
 */
export async function workerPolls(client: Client, taskQueue: string, graceMs = WORKER_GRACE_MS): Promise<boolean> {
  const deadline = Date.now() + graceMs;
  for (;;) {
    if ((await workflowPollers(client, taskQueue)).length > 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 500));
  }
}
