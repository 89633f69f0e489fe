import { afterEach, describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../src/activities/mcp/load-mcp-config';
import { McpUnavailableError } from '../../src/activities/mcp/mcp-pool';
import { createMcpTools, type McpTools } from '../../src/activities/mcp/mcp-tools';
import type { ToolInvocation } from '../../src/domain';
import { EVERYTHING_SERVER } from './mcp-test-servers';

const invocation = (toolName: string, args: Record<string, unknown> = {}): ToolInvocation => ({
  toolName,
  arguments: args,
  idempotencyKey: 'wf:1',
  maxResultChars: 4_000,
});

describe('an MCP server that fails', () => {
  let mcp: McpTools | undefined;
  afterEach(async () => mcp?.close());

  it('that crashes mid-call fails the attempt retryably, and the next attempt runs on a new process', async () => {
    mcp = createMcpTools(
      parseMcpConfig({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } } }),
    );
    const first = await mcp.pool.connect('everything');
    let beats = 0;
    const running = mcp.call(invocation('everything__trigger-long-running-operation', { duration: 10, steps: 10 }), {
      signal: new AbortController().signal,
      // The server reports progress each second; kill it at the first report.
      heartbeat: () => beats++ === 0 && process.kill(first.pid!, 'SIGKILL'),
    });
    await expect(running).rejects.toThrow(McpUnavailableError);
    await expect(running).rejects.toThrow(/MCP server "everything" is unavailable/);
    const again = await mcp.call(invocation('everything__echo', { message: 'back' }), {
      signal: new AbortController().signal,
      heartbeat: () => undefined,
    });
    expect(again).toEqual({ result: 'Echo: back' });
    const second = await mcp.pool.connect('everything');
    expect(second.pid).not.toBe(first.pid);
  }, 30_000);

  it('that hangs past its timeout fails the attempt retryably', async () => {
    mcp = createMcpTools(
      parseMcpConfig({
        mcpServers: { slow: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], timeoutMs: 1_000 } },
      }),
    );
    // One step of 5 s: no progress arrives to extend the 1 s timeout.
    const call = mcp.call(invocation('slow__trigger-long-running-operation', { duration: 5, steps: 1 }), {
      signal: new AbortController().signal,
      heartbeat: () => undefined,
    });
    await expect(call).rejects.toThrow(McpUnavailableError);
    await expect(call).rejects.toThrow(/timed out/i);
  }, 30_000);

  it('that will not start says so, with what it wrote to stderr', async () => {
    mcp = createMcpTools(
      parseMcpConfig({
        mcpServers: {
          broken: {
            command: process.execPath,
            args: ['-e', 'console.error("no database configured"); process.exit(3)'],
          },
        },
      }),
    );
    const listing = mcp.allSpecs();
    await expect(listing).rejects.toThrow(McpUnavailableError);
    await expect(listing).rejects.toThrow(
      /MCP server "broken" is unavailable: could not connect.*no database configured/s,
    );
  }, 30_000);

  it('that is not running at its URL is unavailable, not a bad tool', async () => {
    mcp = createMcpTools(parseMcpConfig({ mcpServers: { gone: { url: 'http://127.0.0.1:9/mcp' } } }));
    await expect(
      mcp.call(invocation('gone__echo', { message: 'x' }), {
        signal: new AbortController().signal,
        heartbeat: () => undefined,
      }),
    ).rejects.toThrow(McpUnavailableError);
  }, 30_000);

  it('stops a call when the activity is cancelled', async () => {
    mcp = createMcpTools(
      parseMcpConfig({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } } }),
    );
    const cancel = new AbortController();
    const started = Date.now();
    const call = mcp.call(invocation('everything__trigger-long-running-operation', { duration: 20, steps: 20 }), {
      signal: cancel.signal,
      heartbeat: () => cancel.abort(new Error('cancelled by the run')),
    });
    await expect(call).rejects.toThrow(/cancelled by the run/);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);
});
