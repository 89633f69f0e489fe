import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';

/** Polls visibility until `runs` runs on the queue have closed; returns the time it saw that. */
export async function waitUntilAllClosed(
  client: Client,
  taskQueue: string,
  runs: number,
  deadline: number,
): Promise<number> {
  // Counting closed runs, not open ones: a run not yet visible would look like a finished one.
  const query = `TaskQueue = '${taskQueue}' AND ExecutionStatus != 'Running'`;
  while (Date.now() < deadline) {
    if ((await client.workflow.count(query)).count >= runs) return Date.now();
    await sleep(250);
  }
  throw new Error(`runs still open on ${taskQueue} after the scale timeout (BENCH_SCALE_TIMEOUT_MS)`);
}

/** Every execution visibility lists on the queue. */
export async function listExecutions(client: Client, taskQueue: string) {
  const executions = [];
  for await (const e of client.workflow.list({ query: `TaskQueue = '${taskQueue}'` })) executions.push(e);
  return executions;
}
