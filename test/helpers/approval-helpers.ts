import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { z } from 'zod';
import type { ModelProvider } from '../../src/activities';
import type { AgentClient } from '../../src/client/agent-client';
import type { ApprovalDecision, ApprovalPolicy, ApprovalRecord, ModelMessage, ToolResultBlock } from '../../src/domain';
import { defineTool } from '../../src/tools/define-tool';

const EventType = temporal.api.enums.v1.EventType;

/** Polls `probe` until it returns something other than undefined; fails naming `what` at the deadline. */
export async function pollFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
  everyMs = 40,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`,
      );
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * The run's pending approvals once exactly `count` are pending. It first waits, reading history
 * (no worker involved), until the current Temporal run has an open timer: the approval wait is
 * the only timer these runs start. Only then does it query. A query that arrives while a workflow
 * task is in flight can be dropped by a worker with `maxCachedWorkflows: 0` ("leftover buffered
 * tasks when evicting run"); we saw that stall the run, and every query, for about 10 s.
 */
export async function waitForPending(agents: AgentClient, workflowId: string, count = 1): Promise<ApprovalRecord[]> {
  return pollFor(`${count} pending approval(s) in ${workflowId}`, async () => {
    if (!(await hasOpenTimer(agents.client, workflowId))) return undefined;
    const pending = await agents.pendingApprovals(workflowId);
    return pending.length === count ? pending : undefined;
  });
}

/** True when the current Temporal run of the workflow has started a timer that has neither fired nor been cancelled. */
async function hasOpenTimer(client: Client, workflowId: string): Promise<boolean> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const open = new Set<string>();
  for (const event of history.events ?? []) {
    if (event.timerStartedEventAttributes?.timerId) open.add(event.timerStartedEventAttributes.timerId);
    if (event.timerFiredEventAttributes?.timerId) open.delete(event.timerFiredEventAttributes.timerId);
    if (event.timerCanceledEventAttributes?.timerId) open.delete(event.timerCanceledEventAttributes.timerId);
  }
  return open.size > 0;
}

/** Resolves at a wall-clock instant (ms since the epoch); at once if it has passed. */
export const until = (atMs: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, atMs - Date.now())));

/**
 * A write-like tool (type `file_system`, not read-only, so `approval: always` by default) that
 * records the arguments of every execution.
 */
export function writeFileTool(
  ran: Array<Record<string, unknown>>,
  options: { name?: string; approverRoles?: string[]; approval?: ApprovalPolicy } = {},
) {
  return defineTool({
    name: options.name ?? 'write_file',
    type: 'file_system',
    description: 'Writes text to a file',
    input: z.object({ path: z.string(), text: z.string().default('') }),
    retry: { maximumAttempts: 1 },
    ...(options.approverRoles ? { approverRoles: options.approverRoles } : {}),
    ...(options.approval ? { approval: options.approval } : {}),
    execute: (args) => {
      ran.push(args);
      return `wrote ${args.text.length} characters to ${args.path}`;
    },
  });
}

/**
 * Wraps a model so that calls after the first `free` ones wait until `release()`: keeps a run open
 * (and its approval records live) while a test sends late decisions. `held()` counts calls waiting.
 */
export function holdAfter(
  inner: ModelProvider,
  free: number,
): { model: ModelProvider; release(): void; held(): number } {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let calls = 0;
  let waiting = 0;
  const model: ModelProvider = {
    name: inner.name,
    async complete(request, signal, hooks) {
      calls += 1;
      if (calls > free) {
        waiting += 1;
        try {
          await Promise.race([
            released,
            new Promise<never>((_, reject) =>
              signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
            ),
          ]);
        } finally {
          waiting -= 1;
        }
      }
      return inner.complete(request, signal, hooks);
    },
  };
  return { model, release, held: () => waiting };
}

/** The tool_result blocks of the last message of a model request. */
export function lastToolResults(messages: readonly ModelMessage[]): ToolResultBlock[] {
  const last = messages.at(-1);
  if (last?.role !== 'user') return [];
  return last.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
}

/**
 * `approveToolCall` updates recorded in one Temporal run's history: the decision each accepted
 * update carried, and how many completed. Refused updates never reach history.
 */
export async function approvalUpdatesInHistory(
  client: Client,
  workflowId: string,
  runId?: string,
): Promise<{ accepted: ApprovalDecision[]; completed: number; otherUpdates: number }> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  const converter = client.options.loadedDataConverter.payloadConverter;
  const accepted: ApprovalDecision[] = [];
  let completed = 0;
  let otherUpdates = 0;
  for (const event of history.events ?? []) {
    if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED) {
      const request = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest;
      if (request?.input?.name !== 'approveToolCall') {
        otherUpdates += 1;
        continue;
      }
      const [arg] = request.input.args?.payloads ?? [];
      accepted.push(converter.fromPayload<ApprovalDecision>(arg!));
    }
    if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED) completed += 1;
    if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ADMITTED) otherUpdates += 1;
  }
  return { accepted, completed, otherUpdates };
}

/** `runTool` activities scheduled in one Temporal run's history, by tool name. */
export async function toolActivities(client: Client, workflowId: string, runId?: string): Promise<string[]> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  const converter = client.options.loadedDataConverter.payloadConverter;
  return (history.events ?? []).flatMap((e) => {
    const attrs = e.activityTaskScheduledEventAttributes;
    if (e.eventType !== EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED || attrs?.activityType?.name !== 'runTool')
      return [];
    const [arg] = attrs.input?.payloads ?? [];
    return [converter.fromPayload<{ toolName: string }>(arg!).toolName];
  });
}
