import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../src/activities/mcp/load-mcp-config';
import { createMcpPool } from '../../src/activities/mcp/mcp-pool';
import { startTaskServer, type TaskServer } from './task-server';

describe("the worker's MCP client", () => {
  let server: TaskServer;
  beforeAll(async () => {
    server = await startTaskServer();
  }, 30_000);
  afterAll(() => server?.stop());

  it('speaks the newest protocol revision the SDK has (2025-11-25, tasks included) with a server on the same SDK', async () => {
    // No release of @modelcontextprotocol/sdk (1.x) or of its 2.x split packages speaks a later one.
    expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25');
    const pool = createMcpPool(parseMcpConfig({ mcpServers: { reports: { url: server.url } } }));
    try {
      const connection = await pool.connect('reports');
      expect((connection.client.transport as StreamableHTTPClientTransport).protocolVersion).toBe('2025-11-25');
      expect(connection.client.getServerCapabilities()?.tasks?.requests?.tools?.call).toBeDefined();
    } finally {
      await pool.close();
    }
  });
});
