import { ApplicationFailure, CancellationScope, isCancellation, sleep } from '@temporalio/workflow';
import type { McpTaskRef, ToolInvocation, ToolOutput } from '../../domain';
import { FailureType } from '../../domain/run/failure-types';
import { inWords } from '../people/wait-in-words';

/** First wait after a call parks, when the server suggests none. */
export const FIRST_MCP_POLL_MS = 1_000;
/** Longest wait between two polls the run chooses (a server's own longer interval is honoured). */
export const MAX_MCP_POLL_INTERVAL_MS = 5 * 60_000;

/**
 * The wait before the next poll: double the last (from FIRST_MCP_POLL_MS), at most
 * MAX_MCP_POLL_INTERVAL_MS, never shorter than the server asks, never past the deadline. Pure.
 * An hour parked is 9 doubling polls to the cap, then one each 5 minutes: 20 polls, 40 actions.
 */
export function nextMcpPollDelay(lastMs: number | undefined, serverMs: number | undefined, leftMs: number): number {
  const doubled = lastMs === undefined ? FIRST_MCP_POLL_MS : lastMs * 2;
  return Math.max(0, Math.min(Math.max(Math.min(doubled, MAX_MCP_POLL_INTERVAL_MS), serverMs ?? 0), leftMs));
}

/** What the wait needs of the activities: one look at a task, and its cancellation. */
export interface McpTaskCalls {
  poll(invocation: ToolInvocation, taskId: string): Promise<ToolOutput>;
  cancel(toolName: string, taskId: string): Promise<void>;
}

/**
 * Waits for the MCP task a call parked on: a durable timer, then one short `pollMcpTask`
 * activity, until the task ends or asks for input (the output the caller goes on with), backing
 * off as nextMcpPollDelay says. No activity and no connection is held while it waits, so a
 * worker restart loses nothing: the next poll (on any worker) asks about the same task id. When
 * the run is cancelled, or the task outlives `waitMs`, the task is cancelled on the server.
 * Deterministic: workflow timers and workflow time only.
 */
export async function waitForMcpTask(
  calls: McpTaskCalls,
  invocation: ToolInvocation,
  parked: McpTaskRef,
  startedAtMs: number,
): Promise<ToolOutput> {
  const deadline = Date.now() + parked.waitMs;
  let task = parked;
  let delay: number | undefined;
  try {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) {
        await calls.cancel(invocation.toolName, task.taskId).catch(() => undefined);
        throw ApplicationFailure.create({
          type: FailureType.ToolRefused,
          message: `The MCP task ${task.taskId} did not finish within ${inWords(parked.waitMs)}; it was cancelled.${task.statusMessage ? ` Its last status: ${task.statusMessage}` : ''}`,
          nonRetryable: true,
        });
      }
      delay = nextMcpPollDelay(delay, task.pollIntervalMs, left);
      await sleep(delay);
      const out = await calls.poll(invocation, task.taskId);
      // The whole call's time, from the first attempt to the task's end, in workflow time.
      if (!out.parked) return { ...out, durationMs: Math.max(0, Date.now() - startedAtMs) };
      task = { ...out.parked, waitMs: parked.waitMs };
    }
  } catch (err) {
    if (isCancellation(err))
      await CancellationScope.nonCancellable(() => calls.cancel(invocation.toolName, task.taskId)).catch(
        () => undefined,
      );
    throw err;
  }
}
