/**
 * thoughtline/react in real Chromium against `thoughtline serve`: the example app of
 * docs/react.md, type-checked, then built and served with the page's own `npx vite` commands (only
 * the ports substituted), in front of a `serve` and a worker in processes of their own (the
 * worker posts its run events to the server, THOUGHTLINE_EVENTS). The worker serves the offline
 * model with two tools of the test's (a gate the test opens, a payment that needs approval) and
 * the CLI worker's own (get_weather).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { freePort } from '../../src/dev-server/probes/free-port';
import { tokenSha256 } from '../../src/server/auth/token-hash';
import { fencedBlocks } from '../docs/markdown-blocks';
import { cliEnv, PROJECT_ROOT, spawnCli, type CliProcess } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';
import { launchChromium } from '../viewer/headless-chromium';

const env = useTestEnv();
const queue = `react-hooks-${randomUUID()}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-react-'));
const gates = path.join(dir, 'gates');
const token = `tl_react_${randomUUID().replaceAll('-', '')}`;
const publisherToken = `tl_react_worker_${randomUUID().replaceAll('-', '')}`;
const pageErrors: string[] = [];
/** The Last-Event-ID each request of a run's event stream sent ('' for none). */
const streamRequests: Array<{ url: string; lastEventId: string }> = [];

let port: number;
let serve: CliProcess;
let worker: CliProcess;
let preview: ChildProcess;
let previewUrl: string;
let browser: Awaited<ReturnType<typeof launchChromium>>;

/** The worker's tools, as a CommonJS module the CLI loads with `require`. */
function writeTools(): string {
  const file = path.join(dir, 'tools.cjs');
  const from = (p: string) => JSON.stringify(path.join(PROJECT_ROOT, p));
  fs.writeFileSync(
    file,
    `const fs = require('node:fs');
const path = require('node:path');
const { z } = require(${from('node_modules/zod')});
const { defineTool } = require(${from('dist/index.js')});
exports.tools = [
  defineTool({
    name: 'wait_for_gate',
    description: 'Waits until a gate opens',
    input: z.object({ gate: z.string() }),
    effects: 'none',
    timeoutMs: 300000,
    execute: async ({ gate }) => {
      while (!fs.existsSync(path.join(${JSON.stringify(gates)}, gate.replace(/[^\\w-]/g, '_')))) await new Promise((r) => setTimeout(r, 100));
      return { gate, opened: true };
    },
  }),
  defineTool({
    name: 'pay_invoice',
    description: 'Pays a vendor invoice',
    input: z.object({ vendor: z.string() }),
    approval: 'always',
    execute: ({ vendor }) => ({ paid: true, vendor }),
  }),
];
`,
  );
  return file;
}

function writeTokens(): string {
  const file = path.join(dir, 'tokens.json');
  const tokens = [
    { sha256: tokenSha256(token), id: `browser-${process.pid}`, roles: ['developer', 'approver'] },
    { sha256: tokenSha256(publisherToken), id: 'react-worker', roles: ['publisher-all-tenants'] },
  ];
  fs.writeFileSync(file, JSON.stringify({ tokens }), { mode: 0o600 });
  return file;
}

/** A shell line of the docs, run from the repository's root in a process group of its own. */
function shell(line: string, extra: Record<string, string>): { child: ChildProcess; output(): string } {
  const child = spawn('bash', ['-c', line], {
    cwd: PROJECT_ROOT,
    detached: true,
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

async function until<T>(
  what: string,
  read: () => T | undefined,
  timeoutMs = 120_000,
  seen: () => string = () => '',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; it printed:\n${seen()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}

function startServe(): CliProcess {
  return spawnCli(
    ['serve', '--port', String(port), '--tokens', path.join(dir, 'tokens.json')],
    cliEnv({ THOUGHTLINE_TASK_QUEUE: queue }),
  );
}

async function stop(process: CliProcess | undefined): Promise<void> {
  if (!process || process.child.exitCode !== null) return;
  process.child.kill('SIGTERM');
  await process.exited;
}

/** The page's `npx vite …` lines, from docs/react.md's bash block. */
function viteCommands(): string[] {
  const page = fs.readFileSync(path.join(PROJECT_ROOT, 'docs/react.md'), 'utf8');
  const block = fencedBlocks(page).find((b) => b.lang === 'bash' && b.code.includes('npx vite build'));
  return (block?.code ?? '').split('\n').filter((l) => l.startsWith('npx vite '));
}

beforeAll(async () => {
  port = await freePort();
  fs.mkdirSync(gates);
  writeTokens();
  const tools = writeTools();

  // The example compiles with its own tsconfig, against the built package.
  const tsc = shell(`"${process.execPath}" node_modules/typescript/bin/tsc -p examples/react/tsconfig.json`, {});
  const tscCode = await new Promise<number | null>((resolve) => tsc.child.on('close', resolve));
  expect(tsc.output()).toBe('');
  expect(tscCode).toBe(0);

  const [build, serveCommand] = viteCommands();
  expect(build).toBe('npx vite build examples/react');
  expect(serveCommand).toBe('npx vite preview examples/react --port 4173 --strictPort');
  const built = shell(build!, {});
  expect(await new Promise((resolve) => built.child.on('close', resolve)), built.output()).toBe(0);
  // No server code in the page's bundle: the hooks import the server's schemas as types only.
  const assets = path.join(PROJECT_ROOT, 'examples/react/dist/assets');
  const bundle = fs
    .readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((f) => fs.readFileSync(path.join(assets, f), 'utf8'))
    .join('\n');
  expect(bundle).toContain('/v1/runs/');
  for (const server of ['fastify', 'temporalio', 'node:fs', 'node:http', 'ZodError'])
    expect(bundle).not.toContain(server);

  const previewPort = await freePort();
  const previewing = shell(serveCommand!.replace('4173', String(previewPort)), {
    THOUGHTLINE_URL: `http://127.0.0.1:${port}`,
  });
  preview = previewing.child;
  previewUrl = await until(
    'vite preview to listen',
    // Vite colours its banner when FORCE_COLOR is set (as CI's runner does), so codes are stripped first.
    () => /Local:\s+(http:\/\/\S+?)\/?\s/.exec(stripAnsi(previewing.output()))?.[1],
    120_000,
    previewing.output,
  );

  worker = spawnCli(
    ['worker', '--tools', tools],
    cliEnv({
      THOUGHTLINE_TASK_QUEUE: queue,
      THOUGHTLINE_EVENTS: `http://127.0.0.1:${port}`,
      THOUGHTLINE_EVENTS_TOKEN: publisherToken,
    }),
  );
  serve = startServe();
  await serve.waitFor(/serving http:\/\/127\.0\.0\.1:\d+/, 120_000);
  await worker.waitFor(/worker polling task queue/, 180_000);
  browser = await launchChromium();
}, 600_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  if (preview?.pid) {
    try {
      process.kill(-preview.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  await stop(serve);
  await stop(worker);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status, `${method} ${url}`).toBeLessThan(300);
  return (await response.json()) as T;
}

interface ChainPage {
  chain: {
    steps: Array<{
      stepNumber: number;
      type: string;
      toolCall?: { toolName: string; arguments: Record<string, unknown> };
    }>;
  };
  totalSteps: number;
}

async function openApp(): Promise<Page> {
  const page = await browser.context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('request', (request) => {
    if (!/\/v1\/runs\/[^/]+\/events/.test(request.url())) return;
    void request
      .allHeaders()
      .then((headers) => streamRequests.push({ url: request.url(), lastEventId: headers['last-event-id'] ?? '' }));
  });
  await page.goto(`${previewUrl}/#token=${encodeURIComponent(token)}`);
  return page;
}

/** Starts a run from the page's form; the run's section and id. */
async function startFromPage(page: Page, task: string) {
  await page.locator('input.task').fill(task);
  await page.locator('form:has(input.task) button').click();
  const run = page.locator('section.run');
  await run.waitFor();
  return { run, runId: (await run.getAttribute('data-run'))! };
}

/** The gate the run's wait_for_gate call named, from its chain. */
async function gateOf(runId: string): Promise<string> {
  const { chain } = await api<ChainPage>('GET', `/v1/runs/${runId}/chain?limit=500`);
  const call = chain.steps.find((s) => s.toolCall?.toolName === 'wait_for_gate');
  return String(call!.toolCall!.arguments['gate']);
}

/** Opens the gate a run waits at; closed again when the test ends (the offline model may name the same gate). */
const openGate = (gate: string): void => {
  const file = path.join(gates, gate.replace(/[^\w-]/g, '_'));
  fs.writeFileSync(file, 'open');
  onTestFinished(() => fs.rmSync(file, { force: true }));
};

/** The steps the page shows are the chain's, each once, in order. */
async function expectEveryStepOnce(page: Page, runId: string): Promise<number[]> {
  const { chain, totalSteps } = await api<ChainPage>('GET', `/v1/runs/${runId}/chain?limit=500`);
  const shown = await page
    .locator(`section.run[data-run="${runId}"] ol.steps li`)
    .evaluateAll((els) =>
      els.map((el) => Number((el as unknown as { dataset: Record<string, string> }).dataset['step'])),
    );
  expect(shown).toEqual(chain.steps.map((s) => s.stepNumber));
  expect(new Set(shown).size).toBe(shown.length);
  expect(shown.length).toBe(totalSteps);
  return shown;
}

describe('thoughtline/react in Chromium, the docs example against serve', () => {
  it('useChain and useRun: a run’s steps appear as it runs, live, and its ending when it ends', async () => {
    const page = await openApp();
    const { run, runId } = await startFromPage(page, 'Wait for gate alpha');
    await run.locator('li[data-type="tool_call"]', { hasText: 'Action: wait_for_gate' }).waitFor({ timeout: 120_000 });
    // The call is on the page while the tool still waits: it came over the stream, live.
    expect(
      await run
        .locator('li[data-type="tool_result"]', { hasText: /^Observation: \{"gate":.*"opened":true\}$/ })
        .count(),
    ).toBe(0);
    await expect.poll(() => run.locator('p.status').getAttribute('data-stream'), { timeout: 30_000 }).toBe('open');
    await expect.poll(() => run.locator('p.status').getAttribute('data-status'), { timeout: 30_000 }).toBe('running');
    openGate(await gateOf(runId));
    await run
      .locator('li[data-type="tool_result"]', { hasText: /^Observation: \{"gate":.*"opened":true\}$/ })
      .waitFor({ timeout: 60_000 });
    await run.locator('p.ending').waitFor({ timeout: 60_000 });
    await expect.poll(() => run.locator('p.status').getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
    expect(await run.locator('p.status').getAttribute('data-stream')).toBe('ended');
    await expectEveryStepOnce(page, runId);
    // useRuns: the list shows the run, and how it ended, as the server lists it.
    const listed = page.locator(`ul.runs li[data-run="${runId}"][data-status="completed"]`);
    await listed.waitFor({ timeout: 60_000 });
    // As the viewer shows it: the ending's label, and the model that answered (the offline one, not the one asked for).
    await expect.poll(() => listed.getAttribute('data-model'), { timeout: 30_000 }).toBe('offline-model');
    expect(await listed.getAttribute('data-ending')).toBe('success');
    expect(await listed.textContent()).toMatch(/^success · Wait for gate alpha.* · offline-model$/);
    await page.close();
  }, 300_000);

  it('reconnects after serve restarts mid-run: resumes with Last-Event-ID and shows every step exactly once', async () => {
    const page = await openApp();
    const { run, runId } = await startFromPage(page, 'Wait for gate beta');
    await run.locator('li[data-type="tool_call"]', { hasText: 'Action: wait_for_gate' }).waitFor({ timeout: 120_000 });
    const gate = await gateOf(runId);
    const before = await run.locator('ol.steps li').count();

    await stop(serve);
    // The run goes on without the server: its remaining steps are recorded while nobody streams them.
    openGate(gate);
    await env.client.workflow.getHandle(runId).result();
    await expect.poll(() => run.locator('p.status').getAttribute('data-stream'), { timeout: 30_000 }).toBe('retrying');
    expect(await run.locator('ol.steps li').count()).toBe(before);

    serve = startServe();
    await serve.waitFor(/serving http:\/\/127\.0\.0\.1:\d+/, 120_000);
    await run.locator('p.ending').waitFor({ timeout: 120_000 });
    const shown = await expectEveryStepOnce(page, runId);
    expect(shown.length).toBeGreaterThan(before);
    // The stream came back where it stopped: a later request named the last event the page had.
    const resumed = streamRequests.filter((r) => r.url.includes(encodeURIComponent(runId)) && r.lastEventId !== '');
    expect(resumed.length).toBeGreaterThan(0);
    expect(Number.parseInt(resumed[0]!.lastEventId, 10)).toBeGreaterThanOrEqual(before);
    await page.close();
  }, 300_000);

  it('useApprovals: a call waiting for approval is approved by its button, and the run finishes', async () => {
    const page = await openApp();
    const { run, runId } = await startFromPage(page, 'Pay invoice for vendor Acme');
    const approval = run.locator('div.approval', { hasText: 'pay_invoice' });
    await approval.waitFor({ timeout: 120_000 });
    await approval.locator('button.approve').click();
    await run
      .locator('li[data-type="tool_result"]', { hasText: /^Observation: \{"paid":true/ })
      .waitFor({ timeout: 120_000 });
    await run.locator('p.ending').waitFor({ timeout: 60_000 });
    // What the page shows is what the server says: no approval pending, the run completed.
    await expect.poll(() => run.locator('div.approval').count(), { timeout: 30_000 }).toBe(0);
    const status = await api<{ status: string; pendingApprovals: unknown[] }>('GET', `/v1/runs/${runId}`);
    expect(status).toMatchObject({ status: 'completed', pendingApprovals: [] });
    await expect.poll(() => run.locator('p.status').getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
    await expectEveryStepOnce(page, runId);
    await page.close();
  }, 300_000);

  it('useThread: a message is one durable turn over AG-UI, its answer streams back, and an approval it stops at is answered', async () => {
    const page = await openApp();
    await page.locator('input.message').fill('What is the weather in Paris?');
    await page.locator('form:has(input.message) button').click();
    const turn = page.locator('section.chat div.turn');
    await turn.locator('p.you', { hasText: 'What is the weather in Paris?' }).waitFor();
    await page.locator('section.chat div.turn[data-state="done"]').waitFor({ timeout: 120_000 });
    expect(await turn.locator('p.reply').textContent()).toMatch(/\[offline model\].*Paris.*light rain/s);

    // A turn that stops at an approval: answered on the page, the same turn goes on to its answer.
    await page.locator('input.message').fill('Pay invoice for vendor Globex');
    await page.locator('form:has(input.message) button').click();
    const paying = page.locator('section.chat div.turn').nth(1);
    await paying.locator('p.interrupt', { hasText: 'pay_invoice' }).waitFor({ timeout: 120_000 });
    expect(await paying.getAttribute('data-state')).toBe('interrupted');
    await paying.locator('p.interrupt button').click();
    await page.locator('section.chat div.turn:nth-child(2)[data-state="done"]').waitFor({ timeout: 120_000 });
    expect(await paying.locator('p.reply').textContent()).toContain('Globex');
    expect(await page.locator('section.chat div.turn').count()).toBe(2);
    await page.close();
  }, 300_000);
});
