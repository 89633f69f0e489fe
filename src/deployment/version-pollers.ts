import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/**
 * The server lists a poller for minutes after its last poll; a live worker polls again at least
 * every long-poll (about a minute), so an older entry is a worker that has gone.
 */
const LIVE_POLLER_AGE_MS = 90_000;

/**
 * How many workers of each build of deployment `name` poll `taskQueue` for workflow tasks now,
 * by build id. Read-only: one DescribeTaskQueue call, no Temporal action.
 */
export async function pollersByBuildId(client: Client, name: string, taskQueue: string): Promise<Map<string, number>> {
  const { pollers } = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
  });
  const now = Date.now();
  const counts = new Map<string, number>();
  for (const p of pollers ?? []) {
    const seconds = Number(p.lastAccessTime?.seconds ?? 0);
    const options = p.deploymentOptions;
    if (seconds !== 0 && now - seconds * 1_000 >= LIVE_POLLER_AGE_MS) continue;
    if (!options?.buildId || options.deploymentName !== name) continue;
    counts.set(options.buildId, (counts.get(options.buildId) ?? 0) + 1);
  }
  return counts;
}
