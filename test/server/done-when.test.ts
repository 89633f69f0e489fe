import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToken } from '../../src/client/server/auth/token-file-store';
import { cliEnv, PROJECT_ROOT, spawnCli, type CliProcess } from '../helpers/cli-process';
import { eventually, writeTokenFile, type Person } from './server-harness';

/**
 * Issue 16's "done when", end to end: the server and a worker in two processes of their own, the
 * suite's dev server, the worker publishing events to the server over HTTP, the offline model.
 */

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });

/** A tools module as users write one (CommonJS): a read-only lookup, and a write-like tool only `ops` may approve. */
const TOOLS_MODULE = (root: string) => `
const { z } = require(${JSON.stringify(path.join(root, 'node_modules/zod'))});
const { defineTool } = require(${JSON.stringify(path.join(root, 'dist/index.js'))});
exports.tools = [
  defineTool({
    name: 'lookup_stock',
    description: 'Look up the stock level of an order',
    readOnly: true,
    input: z.object({ order_id: z.string().describe('The order id, e.g. "A-1234"') }),
    execute: ({ order_id }) => ({ order_id, stock: 3 }),
  }),
  defineTool({
    name: 'publish_notice',
    type: 'file_system',
    description: 'Publish a restock notice for an order',
    approverRoles: ['ops'],
    input: z.object({ order_id: z.string().describe('The order id'), body: z.string().describe('The notice body') }),
    execute: ({ order_id }) => ({ published: order_id }),
  }),
];
`;

let dir: string;
let server: CliProcess;
let worker: CliProcess;
let base: string;
let tokens: Record<Person, string>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-done-'));
  const written = writeTokenFile(dir);
  tokens = written.tokens;
  const publisher = addToken(written.file, { id: 'worker-1', roles: ['publisher'] });
  const toolsFile = path.join(dir, 'tools.js');
  fs.writeFileSync(toolsFile, TOOLS_MODULE(PROJECT_ROOT));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const queue = `done-${randomUUID()}`;
  server = spawnCli(['serve', '--port', String(port), '--tokens', written.file], cliEnv({ THOUGHTLINE_TASK_QUEUE: queue }));
  await server.waitFor(/serving http/);
  worker = spawnCli(['worker', '--tools', toolsFile], cliEnv({ THOUGHTLINE_TASK_QUEUE: queue, THOUGHTLINE_EVENTS: base, THOUGHTLINE_EVENTS_TOKEN: publisher }));
  await worker.waitFor(/worker polling task queue/);
});

afterAll(async () => {
  for (const child of [worker, server]) child?.child.kill('SIGTERM');
  await Promise.all([worker?.exited, server?.exited]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = async (who: Person | undefined, method: string, url: string, body?: unknown): Promise<{ status: number; json: any }> => {
  const headers: Record<string, string> = who ? { authorization: `Bearer ${tokens[who]}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${url}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return { status: response.status, json: await response.json() };
};

describe('thoughtline serve, done when', () => {
  it('starts a run over HTTP; a wrong role is 403 and the right one 200; another tenant gets 404', async () => {
    const started = await call('dev', 'POST', '/v1/runs', { task: 'Look up the stock level of order A-1234 and publish the restock notice', tools: ['lookup_stock', 'publish_notice'], maxIterations: 6 });
    expect(started.status).toBe(201);
    const runId = started.json.runId as string;

    const waiting = await eventually('the approval request', async () => {
      const { json } = await call('dev', 'GET', `/v1/runs/${runId}`);
      return json.pendingApprovals?.length === 1 ? json : undefined;
    }, 60_000);
    const record = waiting.pendingApprovals[0];
    expect(record).toMatchObject({ toolName: 'publish_notice', approverRoles: ['ops'], status: 'pending' });

    const url = `/v1/runs/${runId}/approvals/${record.callId}`;
    expect((await call('rival', 'GET', `/v1/runs/${runId}`)).status).toBe(404);
    expect((await call('rival', 'POST', url, { approved: true, argumentsHash: record.argumentsHash })).status).toBe(404);
    const wrong = await call('dev', 'POST', url, { approved: true, argumentsHash: record.argumentsHash });
    expect(wrong.status).toBe(403);
    const right = await call('ops', 'POST', url, { approved: true, argumentsHash: record.argumentsHash });
    expect(right.status).toBe(200);
    expect(right.json).toMatchObject({ status: 'approved', decidedBy: { id: 'ops', roles: ['ops'] } });

    const done = await eventually('the run to complete', async () => {
      const { json } = await call('dev', 'GET', `/v1/runs/${runId}`);
      return json.status === 'completed' ? json : undefined;
    }, 60_000);
    expect(done.chainStatus).toBe('completed');
    const chain = await call('auditor', 'GET', `/v1/runs/${runId}/chain`);
    expect(chain.json.chain.finalAnswer ?? JSON.stringify(chain.json.chain.steps)).toContain('publish_notice');
  });
});
