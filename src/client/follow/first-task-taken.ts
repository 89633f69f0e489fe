import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';

/**
 * How long a door waits for a worker to take a run it has just started. A live worker takes a
 * workflow task in milliseconds; the server lists a worker that stopped up to a minute and a half
 * ago as polling, so only a task left waiting shows that nobody serves the queue.
 */
export const TAKE_GRACE_MS = 8_000;
const CHECK_EVERY_MS = 250;

const SCHEDULED = temporal.api.enums.v1.PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_SCHEDULED;

/**
 * Whether a worker has taken run `workflowId`'s first workflow task (or the run has ended) within
 * `graceMs`. Read-only: DescribeWorkflowExecution calls, no Temporal action.
 */
export async function firstTaskTaken(client: Client, workflowId: string, graceMs = TAKE_GRACE_MS): Promise<boolean> {
  const deadline = Date.now() + graceMs;
  for (;;) {
    const { raw, status } = await client.workflow.getHandle(workflowId).describe();
    if (status.name !== 'RUNNING' || raw.pendingWorkflowTask?.state !== SCHEDULED) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, CHECK_EVERY_MS));
  }
}
