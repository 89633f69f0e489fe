import { ServiceError } from '@temporalio/client';
import type { AgentClient } from '../agent-client';
import { NoWorkerError } from './no-worker-error';
import { startWorkerCommand } from './worker-advice';

/** How long a read-only command waits for a worker to answer before saying so. */
export const QUERY_DEADLINE_MS = 10_000;

/** gRPC's status code for a call that ran past its deadline. */
const DEADLINE_EXCEEDED = 4;

/** Whether `err`, or an error it was caused by, is a gRPC call that ran past its deadline. */
export const isDeadline = (err: unknown): boolean => {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === DEADLINE_EXCEEDED) return true;
  }
  return false;
};

/**
 * A server call that failed in the last tenth of the deadline: the server, which knows the
 * deadline, may give up on the worker a moment before it with an error of its own (seen as
 * "Failed to query Workflow" on a loaded machine). Only the server's failures count, so a
 * local error that happens late is still itself.
 */
function serverGaveUpAtDeadline(err: unknown, deadline: number, deadlineMs: number): boolean {
  return err instanceof ServiceError && Date.now() >= deadline - deadlineMs / 10;
}

/**
 * Runs `read` (queries of one run) with a deadline on every server call it makes, so a worker
 * that polls but never answers (stuck, or gone a moment ago) costs seconds, not the server's
 * half-minute, and the person is told what to start.
 */
export async function withQueryDeadline<T>(
  agents: AgentClient,
  where: { workflowId: string; configuredQueue: string },
  read: () => Promise<T>,
  deadlineMs = QUERY_DEADLINE_MS,
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  try {
    return await agents.client.connection.withDeadline(deadline, read);
  } catch (err) {
    if (!isDeadline(err) && !serverGaveUpAtDeadline(err, deadline, deadlineMs)) throw err;
    const { taskQueue } = await agents.getHandle(where.workflowId).describe();
    throw new NoWorkerError(
      `no worker answered for run ${where.workflowId} within ${deadlineMs / 1_000} s. Is a worker polling task queue "${taskQueue}"? Start one in another terminal:\n  ${startWorkerCommand(taskQueue, where.configuredQueue)}`,
      taskQueue,
    );
  }
}
