import { describe, expect, it } from 'vitest';
import { MAX_MCP_TASK_ID_CHARS, MAX_MCP_TASK_WAIT_MS, McpTaskRef } from '../../src/domain';
import { parseMcpConfig } from '../../src/activities/mcp/load-mcp-config';

describe('McpTaskRef and taskTimeoutMs, at their limits', () => {
  it('takes a task id of 256 characters and refuses 257', () => {
    const ref = { taskId: 'x'.repeat(MAX_MCP_TASK_ID_CHARS), waitMs: 60_000 };
    expect(McpTaskRef.safeParse(ref).success).toBe(true);
    expect(McpTaskRef.safeParse({ ...ref, taskId: 'x'.repeat(MAX_MCP_TASK_ID_CHARS + 1) }).success).toBe(false);
    expect(McpTaskRef.safeParse({ ...ref, statusMessage: 's'.repeat(500) }).success).toBe(true);
    expect(McpTaskRef.safeParse({ ...ref, statusMessage: 's'.repeat(501) }).success).toBe(false);
  });

  it('takes a wait of 30 days and refuses a longer one', () => {
    const server = (taskTimeoutMs: number) => ({
      mcpServers: { s: { url: 'https://mcp.example.com/mcp', taskTimeoutMs } },
    });
    expect(parseMcpConfig(server(MAX_MCP_TASK_WAIT_MS)).mcpServers['s']).toMatchObject({
      taskTimeoutMs: MAX_MCP_TASK_WAIT_MS,
    });
    expect(() => parseMcpConfig(server(MAX_MCP_TASK_WAIT_MS + 1))).toThrow(/taskTimeoutMs/);
  });
});
