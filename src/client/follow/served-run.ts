import type { AgentClient } from '../agent-client';
import { NoWorkerError } from './no-worker-error';
import { startWorkerCommand } from './worker-advice';
import { cliName } from './cli-name';
import { workerPolls, WORKER_GRACE_MS } from './worker-presence';

/**
 * Throws a NoWorkerError, with what to start, when reading or following `workflowId` needs a
 * worker and none polls the run's task queue: a running run advances and answers queries only
 * through one, and so does an ended run that left no result (cancelled with --hard, terminated).
 * A completed run is served from the result in its history, with or without a worker.
 */
export async function requireServedRun(
  agents: AgentClient,
  workflowId: string,
  configuredQueue: string,
  graceMs = WORKER_GRACE_MS,
): Promise<void> {
  const { status, taskQueue } = await agents.getHandle(workflowId).describe();
  if (status.name === 'COMPLETED') return;
  if (await workerPolls(agents.client, taskQueue, graceMs)) return;
  const start = `Start one in another terminal:\n  ${startWorkerCommand(taskQueue, configuredQueue)}`;
  if (status.name === 'RUNNING') {
    throw new NoWorkerError(
      `no worker polls task queue "${taskQueue}", which run ${workflowId} is on: nothing advances it and nothing answers its queries.\n${start}\nthen: ${cliName()} watch ${workflowId}`,
      taskQueue,
    );
  }
  throw new NoWorkerError(
    `run ${workflowId} ended (${status.name.toLowerCase()}) without a result, so only a worker can answer its queries, and none polls task queue "${taskQueue}".\n${start}`,
    taskQueue,
  );
}
