import { cliName } from './cli-name';

/**
 * The command that starts a worker for `taskQueue`: the plain one for the configured queue, and
 * with the queue named for another (a `run`'s private queue, say).
 */
export function startWorkerCommand(taskQueue: string, configuredQueue: string): string {
  const prefix = taskQueue === configuredQueue ? '' : `THOUGHTLINE_TASK_QUEUE=${taskQueue} `;
  return `${prefix}${cliName()} worker [--tools FILE]`;
}

/** What to do to see run `workflowId` advance again: start a worker, then watch. */
export function resumeAdvice(workflowId: string, taskQueue: string, configuredQueue: string): string {
  return `To resume it, start a worker with the same tools in another terminal:\n  ${startWorkerCommand(taskQueue, configuredQueue)}\nthen follow it with:\n  ${cliName()} watch ${workflowId}`;
}

/** Said while following a run whose workflow task waits with no worker taking it. */
export function stallAdvice(workflowId: string, waitedMs: number, taskQueue: string, configuredQueue: string): string {
  return (
    `run ${workflowId} has waited ${Math.round(waitedMs / 1_000)} s for a worker: none takes its tasks from task queue "${taskQueue}" ` +
    `(a worker seen there lately has stopped). Start one in another terminal:\n  ${startWorkerCommand(taskQueue, configuredQueue)}\n` +
    `Still following; Ctrl-C stops.`
  );
}
