import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MAX_MCP_TASK_ID_CHARS, type ElicitationAnswer, type ElicitationRequest, type McpTaskRef } from '../../domain';
import { ToolError } from '../../tools/tool-error';
import { decideElicitation } from './mcp-elicitation';
import type { McpConnection } from './mcp-pool';
import { mcpTypes } from './mcp-sdk';
import { plainText } from './mcp-tool-spec';

/** A short request (tasks/get, tasks/cancel): the run never waits on a connection for long. */
const TASK_REQUEST_TIMEOUT_MS = 30_000;
/** How long tasks/result may take to hand over a server's question before the poll ends anyway. */
const QUESTION_WAIT_MS = 10_000;

/** What one look at a task gives: still under way, a result, or a question for a person first. */
export type McpTaskStep = { parked: McpTaskRef } | { result: CallToolResult } | { needsInput: ElicitationRequest };

/** Whether calls of `tool` go as tasks: the server serves tasks for tools/call and the tool takes them. */
export async function takesTasks(
  connection: McpConnection,
  tool: string,
  list: () => Promise<Tool[]>,
): Promise<boolean> {
  if (!connection.client.getServerCapabilities()?.tasks?.requests?.tools?.call) return false;
  // Each tool's `execution.taskSupport`, read once per connection (a run may have listed on another worker).
  connection.taskTools ??= new Set(
    (await list())
      .filter((t) => t.execution?.taskSupport === 'optional' || t.execution?.taskSupport === 'required')
      .map((t) => t.name),
  );
  return connection.taskTools.has(tool);
}

/** Either answer a task-augmented tools/call may get: the task, or (a server that chose to) the result itself. */
const callOrTask = () => z.union([mcpTypes().CreateTaskResultSchema, mcpTypes().CallToolResultSchema]);

/**
 * Calls a tool as a task: the server answers at once with the task it started (or with the
 * result, when it chose to run the call inline). The task's lifetime asked for is the run's wait.
 */
export async function startToolTask(
  connection: McpConnection,
  params: { name: string; arguments: Record<string, unknown> },
  waitMs: number,
  signal: AbortSignal,
): Promise<McpTaskStep> {
  const answer: unknown = await connection.client.request({ method: 'tools/call', params }, callOrTask(), {
    signal,
    timeout: TASK_REQUEST_TIMEOUT_MS,
    task: { ttl: waitMs },
  });
  const created = mcpTypes().CreateTaskResultSchema.safeParse(answer);
  if (created.success) return { parked: taskRef(created.data.task, waitMs) };
  return { result: mcpTypes().CallToolResultSchema.parse(answer) };
}

/**
 * One look at a task. `working`: parked again, with the server's poll interval. `input_required`:
 * tasks/result hands over the server's question; one the run has an answer for is answered and
 * the task goes on; one it has none for is answered `cancel` and the task cancelled, and the run
 * asks a person and calls again with the answer, as for a call that asks without a task (MCP gives
 * no way to leave a server's question open while nobody is connected). `completed`: its result.
 * `failed` or `cancelled`: a final error the model reads.
 */
export async function pollToolTask(
  connection: McpConnection,
  server: string,
  toolName: string,
  taskId: string,
  waitMs: number,
  answers: readonly ElicitationAnswer[],
  signal: AbortSignal,
): Promise<McpTaskStep> {
  const options = { signal, timeout: TASK_REQUEST_TIMEOUT_MS };
  const task = await connection.client.experimental.tasks.getTask(taskId, options).catch(gone(server, taskId));
  switch (task.status) {
    case 'working':
      return { parked: taskRef(task, waitMs) };
    case 'completed':
      return { result: await taskResult(connection, server, taskId, options) };
    case 'failed': {
      // The failed call's result, read as an error whatever it says.
      const failed = await taskResult(connection, server, taskId, options).catch(() => undefined);
      if (failed?.content?.length) return { result: { ...failed, isError: true } };
      throw new ToolError(`The MCP task ${taskId} of "${server}" failed${said(task.statusMessage)}.`, {
        retryable: false,
      });
    }
    case 'cancelled':
      throw new ToolError(`The MCP server "${server}" cancelled the task ${taskId}${said(task.statusMessage)}.`, {
        retryable: false,
      });
    case 'input_required':
      return answerQuestion(connection, server, toolName, task, waitMs, answers, signal);
  }
}

/** Cancels a task the run no longer waits for; a task that already ended is left as it is. */
export async function cancelToolTask(connection: McpConnection, taskId: string): Promise<void> {
  await connection.client.experimental.tasks
    .cancelTask(taskId, { timeout: TASK_REQUEST_TIMEOUT_MS })
    .catch((err: unknown) => {
      // -32602: unknown, or already in a terminal status (the spec's answer): nothing left to cancel.
      if (err instanceof mcpTypes().McpError && err.code === mcpTypes().ErrorCode.InvalidParams) return;
      throw err;
    });
}

async function answerQuestion(
  connection: McpConnection,
  server: string,
  toolName: string,
  task: TaskView,
  waitMs: number,
  answers: readonly ElicitationAnswer[],
  signal: AbortSignal,
): Promise<McpTaskStep> {
  const stop = new AbortController();
  const abort = () => stop.abort(signal.reason);
  signal.addEventListener('abort', abort, { once: true });
  let asked: ElicitationRequest | undefined;
  let answered = false;
  const release = connection.whileCalling((params) => {
    if (asked) return { action: 'cancel' };
    const step = decideElicitation(server, toolName, params, answers);
    // Once the server has its answer (or a refusal), tasks/result would hold until the task ends: the run polls instead.
    setImmediate(() => stop.abort(new Error('answered')));
    if (step.kind === 'answer') {
      answered = true;
      return step.result;
    }
    if (step.kind === 'refuse') {
      answered = true;
      return { action: 'decline' };
    }
    asked = step.request;
    return { action: 'cancel' };
  });
  const timer = setTimeout(() => stop.abort(new Error('no question')), QUESTION_WAIT_MS);
  try {
    const result = await connection.client.experimental.tasks.getTaskResult(
      task.taskId,
      mcpTypes().CallToolResultSchema,
      {
        signal: stop.signal,
        timeout: QUESTION_WAIT_MS + TASK_REQUEST_TIMEOUT_MS,
      },
    );
    return { result };
  } catch (err) {
    if (signal.aborted) throw err;
    if (asked) {
      await cancelToolTask(connection, task.taskId).catch(() => undefined);
      return { needsInput: asked };
    }
    if (answered || stop.signal.aborted) return { parked: taskRef(task, waitMs) };
    throw err;
  } finally {
    clearTimeout(timer);
    release();
    signal.removeEventListener('abort', abort);
  }
}

async function taskResult(
  connection: McpConnection,
  server: string,
  taskId: string,
  options: { signal: AbortSignal; timeout: number },
): Promise<CallToolResult> {
  return connection.client.experimental.tasks
    .getTaskResult(taskId, mcpTypes().CallToolResultSchema, options)
    .catch(gone(server, taskId));
}

/** A task the server no longer knows (expired, or the server restarted without keeping it) is final. */
function gone(server: string, taskId: string): (err: unknown) => never {
  return (err) => {
    if (err instanceof mcpTypes().McpError && err.code === mcpTypes().ErrorCode.InvalidParams)
      throw new ToolError(`The MCP server "${server}" no longer knows the task ${taskId}: ${err.message}`, {
        retryable: false,
      });
    throw err;
  };
}

type TaskView = { taskId: string; pollInterval?: number | undefined; statusMessage?: string | undefined };

function taskRef(task: TaskView, waitMs: number): McpTaskRef {
  if (task.taskId.length === 0 || task.taskId.length > MAX_MCP_TASK_ID_CHARS)
    throw new ToolError(
      `The MCP server answered with a task id of ${task.taskId.length} characters; at most ${MAX_MCP_TASK_ID_CHARS}.`,
      {
        retryable: false,
      },
    );
  return {
    taskId: task.taskId,
    waitMs,
    ...(task.pollInterval !== undefined && Number.isFinite(task.pollInterval)
      ? { pollIntervalMs: Math.min(Math.max(0, Math.round(task.pollInterval)), waitMs) }
      : {}),
    ...(task.statusMessage ? { statusMessage: plainText(task.statusMessage, 500) } : {}),
  };
}

function said(message: string | undefined): string {
  return message ? `: ${plainText(message, 500)}` : '';
}
