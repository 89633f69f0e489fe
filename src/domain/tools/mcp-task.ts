import { z } from 'zod';

/** Longest task id a run records; the SDK's ids are UUIDs, a server's own may be longer. */
export const MAX_MCP_TASK_ID_CHARS = 256;
/** Longest a run waits on one MCP task unless the server config says otherwise (`taskTimeoutMs`). */
export const DEFAULT_MCP_TASK_WAIT_MS = 24 * 3_600_000;
/** Longest any run waits on one MCP task. */
export const MAX_MCP_TASK_WAIT_MS = 30 * 24 * 3_600_000;

/**
 * An MCP server answered a tool call with a task (MCP 2025-11-25 tasks): the call is under way on
 * the server and the run waits on a durable timer, polling `tasks/get`, holding no activity and no
 * connection. The worker fills it in; the workflow only reads it.
 */
export const McpTaskRef = z.object({
  taskId: z.string().min(1).max(MAX_MCP_TASK_ID_CHARS),
  /** The server's suggested time between polls (ms); the run never polls more often. */
  pollIntervalMs: z.number().int().nonnegative().max(MAX_MCP_TASK_WAIT_MS).optional(),
  /** How long the run waits for the task from when it parks (the server config's `taskTimeoutMs`). */
  waitMs: z.number().int().positive().max(MAX_MCP_TASK_WAIT_MS),
  /** The server's last status line, plain and short. */
  statusMessage: z.string().max(500).optional(),
});
export type McpTaskRef = z.infer<typeof McpTaskRef>;
