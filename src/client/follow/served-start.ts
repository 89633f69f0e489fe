import type { AgentClient, AgentHandle } from '../agent-client';
import { firstTaskTaken, TAKE_GRACE_MS } from './first-task-taken';
import { NoWorkerError } from './no-worker-error';
import { workerPolls } from './worker-presence';

/**
 * Starts a run through `start` only when a worker will serve it, for a door that hosts none of
 * its own (mcp-server without --with-worker): with no worker polling `agents.taskQueue` it starts
 * nothing; when nobody takes the run within `TAKE_GRACE_MS` (the worker the server still lists
 * has stopped), the run is left waiting and the error names it. Either way a NoWorkerError says
 * what to start (`fix`), within seconds instead of a caller waiting on a run that never moves.
 * Costs no Temporal action beyond the start: DescribeTaskQueue and DescribeWorkflowExecution only.
 */
export async function startServedRun(
  agents: AgentClient,
  start: () => Promise<AgentHandle>,
  fix: string,
  graceMs = TAKE_GRACE_MS,
): Promise<AgentHandle> {
  const queue = agents.taskQueue;
  if (!(await workerPolls(agents.client, queue)))
    throw new NoWorkerError(
      `No worker polls task queue "${queue}", so nothing would run it; nothing was started. ${fix}`,
      queue,
    );
  const handle = await start();
  if (await firstTaskTaken(agents.client, handle.workflowId, graceMs)) return handle;
  throw new NoWorkerError(
    `Run ${handle.workflowId} was started, but no worker took it within ${Math.round(graceMs / 1_000)} s: the worker last seen on task queue "${queue}" has stopped. ${fix} The run waits for it.`,
    queue,
  );
}
