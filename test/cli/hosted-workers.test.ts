import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/dev-server/probes/free-port';
import { cliEnv, PROJECT_ROOT, runCli, spawnCli } from '../helpers/cli-process';
import { eventually } from '../server/server-harness';
import { useTestEnv } from '../helpers/temporal-env';
import { workflowPollers } from '../../src/client/follow/worker-presence';

/**
 * A newcomer's path through the doors that host workers, on the suite's dev server: `thoughtline
 * worker` (versioned: it makes its version current) runs once and stops, then `run`,
 * `mcp-server --with-worker` and `serve --with-worker` on the same task queue each complete their
 * run. And `mcp-server` with no worker anywhere answers a tool call with an error, within seconds.
 */
const testEnv = useTestEnv();
const CLI = path.join(PROJECT_ROOT, 'dist/cli/main.js');
const queue = `hosted-${randomUUID()}`;
const env = cliEnv({ THOUGHTLINE_TASK_QUEUE: queue, THOUGHTLINE_USER: 'newcomer' });
const clients: Client[] = [];
let dir: string;

const stdioEnv = (extra: Record<string, string>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(cliEnv({ THOUGHTLINE_USER: 'newcomer', ...extra })).filter(
      (e): e is [string, string] => e[1] !== undefined,
    ),
  );

async function mcpClient(args: string[], taskQueue: string): Promise<{ client: Client; stderr: () => string }> {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp-server', ...args],
    env: stdioEnv({ THOUGHTLINE_TASK_QUEUE: taskQueue }),
    cwd: PROJECT_ROOT,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'hosted-workers-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-hosted-'));
  const worker = spawnCli(['worker'], env);
  await worker.waitFor(/worker polling task queue .*, current: it takes every new run/);
  // As after a while of use: the server lists it as polling, and goes on listing it once it has stopped.
  for (let i = 0; (await workflowPollers(testEnv.client, queue)).length === 0; i++) {
    if (i > 120) throw new Error(`the server never listed the worker polling ${queue}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  worker.child.kill('SIGINT');
  expect(await worker.exited, worker.output()).toBe(0);
}, 120_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('after a versioned worker has run once on the task queue and stopped', () => {
  // First: the server still lists the stopped worker as polling (for up to ~90 s), so `run` sends the run there.
  it('thoughtline run completes its run', async () => {
    const run = await runCli(['run', '--no-dashboard', '--json', 'What is the weather in Paris?'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ success: true });
    expect(run.stderr).toContain('This process serves the queue with its own worker');
  }, 90_000);

  it('mcp-server --with-worker completes the run an MCP tool call starts', async () => {
    const { client, stderr } = await mcpClient(['--with-worker'], queue);
    const result = await client.callTool(
      { name: 'agent', arguments: { task: 'What is the weather in Paris?' } },
      CallToolResultSchema,
      { timeout: 60_000 },
    );
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect((result.structuredContent as { terminationReason: string }).terminationReason).toBe('success');
    expect(stderr()).toMatch(/with a worker on task queue "[^"]+", version /);
  }, 90_000);

  it('serve --with-worker completes a run started over HTTP', async () => {
    const file = path.join(dir, 'tokens.json');
    const token = (await runCli(['token', '--id', 'dana', '--roles', 'developer', '--file', file], env)).stdout.trim();
    const port = await freePort();
    const server = spawnCli(['serve', '--port', String(port), '--tokens', file, '--with-worker'], env);
    try {
      await server.waitFor(/serving http:\/\/127\.0\.0\.1:\d+ .*with a worker on task queue/);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const response = await fetch(`http://127.0.0.1:${port}/v1/runs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ task: 'What is the weather in Tokyo?' }),
      });
      const { runId } = (await response.json()) as { runId: string };
      await eventually(
        'the run to complete',
        async () => {
          const status = (await (await fetch(`http://127.0.0.1:${port}/v1/runs/${runId}`, { headers })).json()) as {
            status: string;
          };
          return status.status === 'completed' ? status : undefined;
        },
        60_000,
      );
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  }, 90_000);
});

describe('mcp-server with no worker anywhere', () => {
  it('answers a tool call with an error result naming the fix, within seconds, starting nothing', async () => {
    const { client } = await mcpClient([], `no-worker-${randomUUID()}`);
    const began = Date.now();
    const result = await client.callTool(
      { name: 'agent', arguments: { task: 'What is the weather in Paris?' } },
      CallToolResultSchema,
      { timeout: 60_000 },
    );
    const tookMs = Date.now() - began;
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    expect(text).toMatch(
      /^No worker polls task queue "no-worker-[^"]+", so nothing would run it; nothing was started\./,
    );
    expect(text).toContain('thoughtline worker');
    expect(text).toContain('--with-worker');
    expect(tookMs).toBeLessThan(10_000);
  }, 90_000);
});
