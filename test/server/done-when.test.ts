import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToken } from '../../src/server/auth/token-file-store';
import { generateSigningKey } from '../../src/server/signing/generate-signing-key';
import { approveToolCallUpdate } from '../../src/workflows/messages';
import { cliEnv, PROJECT_ROOT, spawnCli, type CliProcess } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';
import { openEvents, stepNumbers, type SseMessage } from './events-harness';
import { writeTokenFile, type Person } from './server-harness';
import { freePort } from '../../src/dev-server/probes/free-port';

/**
 * Issue 16's "done when", end to end: the server and a worker in two processes of their own, the
 * suite's dev server, the worker publishing events to the server over HTTP, the offline model.
 * The server signs every decision and its runs require signatures.
 */

const env = useTestEnv();

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
  // The worker runs every tenant's runs, so its credential may publish for all of them.
  const publisher = addToken(written.file, { id: 'worker-1', roles: ['publisher-all-tenants'] });
  const keyring = path.join(dir, 'keys.json');
  fs.writeFileSync(
    keyring,
    JSON.stringify({ keys: [{ id: 'k-done', privateKey: generateSigningKey('k-done').privateKey }] }),
    { mode: 0o600 },
  );
  const toolsFile = path.join(dir, 'tools.js');
  fs.writeFileSync(toolsFile, TOOLS_MODULE(PROJECT_ROOT));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const queue = `done-${randomUUID()}`;
  server = spawnCli(
    ['serve', '--port', String(port), '--tokens', written.file, '--signing-keys', keyring, '--require-signatures'],
    cliEnv({ THOUGHTLINE_TASK_QUEUE: queue }),
  );
  await server.waitFor(/serving http/);
  worker = spawnCli(
    ['worker', '--tools', toolsFile],
    cliEnv({ THOUGHTLINE_TASK_QUEUE: queue, THOUGHTLINE_EVENTS: base, THOUGHTLINE_EVENTS_TOKEN: publisher }),
  );
  await worker.waitFor(/worker polling task queue/);
});

afterAll(async () => {
  for (const child of [worker, server]) child?.child.kill('SIGTERM');
  await Promise.all([worker?.exited, server?.exited]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = async (
  who: Person | undefined,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; json: any }> => {
  const headers: Record<string, string> = who ? { authorization: `Bearer ${tokens[who]}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${url}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, json: await response.json() };
};

/** The step numbers of a message list, checked to be strictly increasing (none twice, none out of order). */
const increasingSteps = (messages: readonly SseMessage[]): number[] => {
  const steps = stepNumbers(messages);
  steps.forEach((n, i) => expect(i === 0 || n > steps[i - 1]!, `step ${n} after ${steps[i - 1]}`).toBe(true));
  return steps;
};

describe('thoughtline serve, done when', () => {
  it('starts a run over HTTP, follows it by SSE to the end, resumes mid-run with Last-Event-ID missing nothing; approvals 403/200, a forged unsigned one refused; another tenant 404', async () => {
    const started = await call('dev', 'POST', '/v1/runs', {
      task: 'Look up the stock level of order A-1234 and publish the restock notice',
      tools: ['lookup_stock', 'publish_notice'],
      maxIterations: 6,
    });
    expect(started.status).toBe(201);
    const runId = started.json.runId as string;
    expect(started.json.links.events).toBe(`/v1/runs/${runId}/events`);

    // One watcher follows the whole run; another leaves while it waits for a person and comes back later.
    const whole = await openEvents({ url: base }, runId, { token: tokens.dev });
    const first = await openEvents({ url: base }, runId, { token: tokens.dev });
    expect([whole.status, whole.headers.get('content-type')]).toEqual([
      200,
      expect.stringMatching(/^text\/event-stream/),
    ]);
    const request = await first.waitFor(
      'the approval request',
      (m) => m.event === 'approval' && m.data.approval.status === 'pending',
      60_000,
    );
    const record = request.data.approval;
    expect(record).toMatchObject({ toolName: 'publish_notice', approverRoles: ['ops'] });
    first.close();
    const lastSeen = first.messages.at(-1)!.id;
    const seenBefore = increasingSteps(first.messages);
    expect(seenBefore.length).toBeGreaterThan(0);

    const refused = await openEvents({ url: base }, runId, { token: tokens.rival });
    expect([refused.status, refused.json]).toEqual([404, (await call('rival', 'GET', '/v1/runs/agent-none')).json]);
    expect((await call('rival', 'GET', `/v1/runs/${runId}`)).status).toBe(404);

    const url = `/v1/runs/${runId}/approvals/${record.callId}`;
    expect((await call('rival', 'POST', url, { approved: true, argumentsHash: record.argumentsHash })).status).toBe(
      404,
    );
    const wrong = await call('dev', 'POST', url, { approved: true, argumentsHash: record.argumentsHash });
    expect(wrong.status).toBe(403);
    // Someone with raw Temporal access, not the server, forges ops' approval: unsigned, the run refuses it.
    const forged = env.client.workflow.getHandle(runId).executeUpdate(approveToolCallUpdate, {
      args: [
        {
          callId: record.callId,
          approved: true,
          by: { id: 'ops', roles: ['ops'] },
          argumentsHash: record.argumentsHash,
        },
      ],
    });
    await expect(forged).rejects.toMatchObject({ cause: { message: expect.stringMatching(/signature/i) } });
    const right = await call('ops', 'POST', url, { approved: true, argumentsHash: record.argumentsHash });
    expect(right.status).toBe(200);
    expect(right.json).toMatchObject({ status: 'approved', decidedBy: { id: 'ops', roles: ['ops'] } });

    // The run goes on with nobody on `first`'s stream; coming back with its last id misses nothing.
    const end = await whole.waitFor('the end', (m) => m.event === 'end', 60_000);
    expect(end.data).toMatchObject({ type: 'end', runId, outcome: 'completed' });
    const resumed = await openEvents({ url: base }, runId, { token: tokens.dev, lastEventId: lastSeen });
    await resumed.waitFor('the end after resuming', (m) => m.event === 'end', 60_000);
    await Promise.all([whole.ended, resumed.ended]);

    const chain = (await call('dev', 'GET', `/v1/runs/${runId}/chain?limit=500`)).json.chain;
    const all = chain.steps.map((step: { stepNumber: number }) => step.stepNumber);
    expect(chain.status).toBe('completed');
    expect(increasingSteps(whole.messages)).toEqual(all);
    const seenAfter = increasingSteps(resumed.messages);
    expect(seenAfter.every((n) => n > Math.max(...seenBefore))).toBe(true);
    expect([...seenBefore, ...seenAfter]).toEqual(all);
    expect(seenAfter.length).toBeGreaterThan(0);
    // Each step as the chain shows it in the same view, not a raw copy.
    const last = resumed.messages.filter((m) => m.event === 'step').at(-1)!;
    expect(last.id).toBe(String(last.data.stepNumber));
    expect(last.data.step).toEqual(chain.steps.at(-1));
    expect(JSON.stringify(chain.steps)).toContain('publish_notice');
  });
});
