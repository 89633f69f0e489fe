import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../src/activities/mcp/load-mcp-config';
import { createMcpTools, type McpTools } from '../../src/activities/mcp/mcp-tools';
import { ToolError } from '../../src/tools/tool-error';
import { startTaskServer, type TaskServer } from './task-server';

const context = () => ({ signal: new AbortController().signal, heartbeat: () => undefined });
const call = (tool: string, args: Record<string, unknown>) => ({
  toolName: `reports__${tool}`,
  arguments: args,
  idempotencyKey: 'k',
  maxResultChars: 1_000,
});
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The worker's side of MCP tasks against a real server: what each ending of a task becomes. */
describe('MCP task calls in the activity', () => {
  let server: TaskServer;
  let mcp: McpTools;
  beforeAll(async () => {
    server = await startTaskServer();
    mcp = createMcpTools(parseMcpConfig({ mcpServers: { reports: { url: server.url, taskTimeoutMs: 120_000 } } }));
  }, 30_000);
  afterAll(async () => {
    await mcp?.close();
    await server?.stop();
  });

  it("parks on the task with the server's poll interval and the configured wait", async () => {
    const started = await mcp.call(call('slow_report', { topic: 'a', ms: 5_000 }), context());
    expect(started).toEqual({ parked: { taskId: expect.any(String), waitMs: 120_000, pollIntervalMs: 500 } });
  });

  it("turns a failed task into a final error carrying the server's text", async () => {
    const invocation = call('broken_report', { topic: 'the budget' });
    const started = (await mcp.call(invocation, context())) as { parked: { taskId: string } };
    await wait(300);
    const err = await mcp.poll(invocation, started.parked.taskId, context()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).retryable).toBe(false);
    expect((err as ToolError).message).toContain('The printer caught fire printing the budget.');
  });

  it('turns a task cancelled on the server into a final error, and a task it does not know into another', async () => {
    const invocation = call('slow_report', { topic: 'b', ms: -1 });
    const started = (await mcp.call(invocation, context())) as { parked: { taskId: string } };
    await mcp.cancelTask(invocation.toolName, started.parked.taskId);
    // A second cancel of an ended task is no error.
    await mcp.cancelTask(invocation.toolName, started.parked.taskId);
    const cancelled = await mcp.poll(invocation, started.parked.taskId, context()).catch((e: unknown) => e);
    expect((cancelled as ToolError).message).toMatch(/cancelled the task/);
    const unknown = await mcp.poll(invocation, 'no-such-task', context()).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ToolError);
    expect((unknown as ToolError).message).toMatch(/no longer knows the task no-such-task/);
  });
});
