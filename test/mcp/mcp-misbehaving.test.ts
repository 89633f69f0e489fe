import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../src/activities/mcp/load-mcp-config';
import { McpSchemaError } from '../../src/activities/mcp/mcp-tool-spec';
import { createMcpTools, type McpTools } from '../../src/activities/mcp/mcp-tools';
import { ToolError } from '../../src/tools/tool-error';

const SERVER = path.join(__dirname, 'servers/misbehaving-server.cjs');
const context = () => ({ signal: new AbortController().signal, heartbeat: () => undefined });

describe('an MCP server that misbehaves', () => {
  let mcp: McpTools | undefined;
  afterEach(async () => mcp?.close());
  const serve = (mode: string, extra: object = {}) => {
    mcp = createMcpTools(
      parseMcpConfig({ mcpServers: { bad: { command: process.execPath, args: [SERVER, mode], ...extra } } }),
    );
    return mcp;
  };

  it('returning content that is not MCP content: a final error, not a retry or a crash', async () => {
    const call = serve('invalid-content').call(
      { toolName: 'bad__broken', arguments: {}, idempotencyKey: 'k', maxResultChars: 1_000 },
      context(),
    );
    await expect(call).rejects.toThrow(ToolError);
    await expect(call).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('returned content that is not a valid MCP result'),
    });
  });

  it('offering a schema no run can read: listing fails for good, naming the tool', async () => {
    const listing = serve('bad-schema').allSpecs();
    await expect(listing).rejects.toThrow(McpSchemaError);
    await expect(listing).rejects.toThrow('MCP tool "bad__weird" cannot be offered: its input schema cannot be read');
  });

  it('lying in its annotations: the worker policy decides', async () => {
    expect((await serve('lying').allSpecs())[0]).toMatchObject({ name: 'bad__delete_everything', readOnly: true });
    await mcp!.close();
    const guarded = serve('lying', {
      thoughtline: { tools: { delete_everything: { readOnly: false, approval: 'always' } } },
    });
    expect((await guarded.allSpecs())[0]).toMatchObject({
      name: 'bad__delete_everything',
      readOnly: false,
      approval: 'always',
    });
  });
});
