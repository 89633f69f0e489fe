import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { cliEnv, PROJECT_ROOT, runCli, spawnCli } from '../helpers/cli-process';
import { writeTokenFile } from '../server/server-harness';
import { useTestEnv } from '../helpers/temporal-env';

/**
 * The built CLI as an MCP server over stdio, as a desktop client starts it: the offline model
 * (no API key) on the command's own worker, on a task queue of its own.
 */
useTestEnv();
const CLI = path.join(PROJECT_ROOT, 'dist/cli/main.js');
const clients: Client[] = [];
afterAll(async () => Promise.all(clients.map((c) => c.close())));

const env = (extra: Record<string, string> = {}): Record<string, string> =>
  Object.fromEntries(
    Object.entries(
      cliEnv({ THOUGHTLINE_TASK_QUEUE: `mcps-stdio-${randomUUID()}`, THOUGHTLINE_USER: 'stdio-tester', ...extra }),
    ).filter((e): e is [string, string] => e[1] !== undefined),
  );

describe('thoughtline mcp-server over stdio', () => {
  it('serves the agents to a client that spawned it and answers a call, with nothing but MCP on stdout', async () => {
    let stderr = '';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp-server', '--with-worker'],
      env: env(),
      cwd: PROJECT_ROOT,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    clients.push(client);
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['agent', 'get_run']);
    const result = await client.callTool(
      { name: 'agent', arguments: { task: 'What is the weather in Paris?' } },
      CallToolResultSchema,
      { timeout: 60_000 },
    );
    const structured = result.structuredContent as { runId: string; terminationReason: string };
    expect(structured.runId).toMatch(/^agent-/);
    expect(structured.terminationReason).toBe('success');
    expect((result.content as Array<{ text: string }>)[0]!.text).toContain('Paris');
    // The notices went to stderr, naming the identity it acts as: the local person, without a tenant.
    expect(stderr).toContain('MCP server on stdio as stdio-tester with a worker');
  });

  it('serves Streamable HTTP with --http, authenticated from the token file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-mcps-cli-'));
    const { file, tokens } = writeTokenFile(dir);
    const server = spawnCli(['mcp-server', '--http', '0', '--tokens', file], env());
    try {
      await server.waitFor(/MCP server at (http:\/\/\S+\/mcp)/, 30_000);
      const url = /MCP server at (http:\/\/\S+\/mcp)/.exec(server.output())![1]!;
      expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(401);
      const client = new Client({ name: 'http-test', version: '1.0.0' });
      clients.push(client);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: `Bearer ${tokens.dev}` } },
        }),
      );
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['agent', 'get_run']);
      await client.close();
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start when THOUGHTLINE_TOKEN does not authenticate, never acting as anyone else', async () => {
    const run = await runCli(['mcp-server'], env({ THOUGHTLINE_TOKEN: 'tl_not_a_token' }));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('THOUGHTLINE_TOKEN does not authenticate');
  });

  it('refuses to start under a visibility policy it cannot read, saying which', async () => {
    for (const run of [
      await runCli(['mcp-server'], env({ THOUGHTLINE_VISIBILITY_POLICY: '/nonexistent/policy.yaml' })),
      await runCli(['mcp-server', '--policy', '/nonexistent/policy.yaml'], env()),
    ]) {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('/nonexistent/policy.yaml');
    }
  });
});
