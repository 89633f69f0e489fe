import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { registerViewerRoute } from '../../src/client/server/viewer-route';
import { defineTool } from '../../src/tools/define-tool';
import { gateTool } from '../helpers/people-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { eventually, routedModel, startServerHarness, type Person, type ServerHarness } from '../server/server-harness';
import { launchChromium } from './headless-chromium';

const env = useTestEnv();
const model = routedModel();
const gate = gateTool();
const IMAGES = path.resolve(__dirname, '../../docs/images');
const CARD = '4111111111111111';

/** A payment: the card number is a sensitive field, and only `ops` may approve a call. */
const paid: Array<Record<string, unknown>> = [];
const payInvoice = defineTool({
  name: 'pay_invoice',
  description: 'Pays a vendor invoice by card',
  input: z.object({ vendor: z.string(), invoice: z.string(), amountUsd: z.number(), cardNumber: z.string() }),
  sensitiveFields: ['cardNumber'],
  approval: 'always',
  approverRoles: ['ops'],
  retry: { maximumAttempts: 1 },
  execute: (args) => {
    paid.push(args);
    return { paid: true, vendor: args.vendor, amountUsd: args.amountUsd, confirmation: 'PAY-20931' };
  },
});

let s: ServerHarness;
let browser: { context: BrowserContext; close(): Promise<void> };

beforeAll(async () => {
  s = await startServerHarness(env, { tools: [gate.tool, payInvoice], model, server: { extend: (app) => registerViewerRoute(app) } });
  browser = await launchChromium();
  fs.mkdirSync(IMAGES, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

/** Starts a run over HTTP as `who`; its model plays `turns` (the task carries the script's key). */
async function start(who: Person, key: string, task: string, turns: Parameters<typeof model.script>[1], extra: Record<string, unknown> = {}): Promise<string> {
  model.script(key, turns);
  const started = await s.call(who, 'POST', '/v1/runs', { task: `${task} [${key}]`, model: SCRIPTED_MODEL, agentName: 'accounts-payable', ...extra });
  expect(started.status).toBe(201);
  return started.json.runId as string;
}

/** A tab signed in as `who` (the token in the fragment, as `serve` prints it), at `route`. */
async function openAs(who: Person | string, route = '/'): Promise<Page> {
  const page = await browser.context.newPage();
  const token = who in s.tokens ? s.tokens[who as Person] : who;
  await page.goto(`${s.server.url}/#token=${encodeURIComponent(token)}&${route}`);
  return page;
}

async function pendingApproval(runId: string): Promise<{ callId: string }> {
  return eventually('a pending approval', async () => {
    const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
    return json.pendingApprovals?.[0];
  });
}

/** The events route's status for a run, read from the headers only (a live stream never ends by itself). */
async function streamStatus(runId: string): Promise<number> {
  const abort = new AbortController();
  const response = await fetch(`${s.server.url}/v1/runs/${runId}/events`, { headers: { authorization: `Bearer ${s.tokens.dev}` }, signal: abort.signal });
  abort.abort();
  return response.status;
}

const usage = { inputTokens: 1840, outputTokens: 96 };

describe('the chain viewer in Chromium', () => {
  it('shows a run\'s steps as they land, without a reload, with tokens, cost and the progress line', async () => {
    const runId = await start('dev', 'live', 'Reconcile the October vendor statements', [
      { content: [say('First I wait for the ledger export to finish.'), useTool('wait_for_gate', { gate: 'ledger' })], usage, costUsd: 0.0123 },
      { content: [say('The export is there; the statements reconcile.'), useTool('finish', { result: 'All 14 October statements reconcile with the ledger.' })], usage, costUsd: 0.0117 },
    ]);
    await eventually('the gate tool to start', async () => gate.started('ledger') || undefined);
    const page = await openAs('dev', `/runs/${runId}`);

    // The token left the address bar; the page knows who the person is.
    await expect.poll(() => page.url()).toBe(`${s.server.url}/#/runs/${runId}`);
    await page.locator('.thought', { hasText: 'First I wait for the ledger export to finish.' }).waitFor();
    await page.locator('.step-title', { hasText: 'Tool call · wait_for_gate' }).waitFor();
    expect(await page.getByText('gate ledger opened').count()).toBe(0);
    expect(await page.locator('.who').textContent()).toContain('dev');
    const progress = await page.locator('.progress').textContent();
    expect(progress).toMatch(/^step \d+ · iteration 1\/10 · \$0\.01$/);
    // Tokens and cost per model step, for a developer.
    expect(await page.locator('.step-facts', { hasText: '1,840 in · 96 out' }).count()).toBeGreaterThan(0);
    // Live over the event stream where the server has one; by polling the chain where it answers 503.
    await page.locator(`.live-state[data-live="${(await streamStatus(runId)) === 503 ? 'poll' : 'sse'}"]`).waitFor();

    gate.release('ledger');
    await page.locator('.step-title', { hasText: 'Result · wait_for_gate' }).waitFor({ timeout: 20_000 });
    await page.locator('.result', { hasText: 'gate ledger opened' }).waitFor();
    await page.locator('.thought', { hasText: 'The export is there; the statements reconcile.' }).waitFor();
    await page.locator('.run-meta .status', { hasText: 'completed' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('.progress').textContent()).toMatch(/ · \$0\.02$/);
    await page.locator('.live-state[data-live="ended"]').waitFor();
    // The view selector offers a developer their views, never the auditor's.
    expect((await page.locator('#view option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).sort()).toEqual(['developer', 'end_user']);
    await page.screenshot({ path: path.join(IMAGES, 'viewer-run.png'), fullPage: true });
    await page.close();
  });

  it('approves a pending call from its Approve button: the record is approved and the run goes on', async () => {
    const runId = await start('dev', 'approve', 'Pay the Globex invoice INV-7731', [
      { content: [say('The invoice is due today; I pay it.'), useTool('pay_invoice', { vendor: 'Globex', invoice: 'INV-7731', amountUsd: 1200, cardNumber: CARD })] },
      { content: [useTool('finish', { result: 'Paid INV-7731 (PAY-20931).' })] },
    ]);
    const pending = await pendingApproval(runId);
    const page = await openAs('ops', `/runs/${runId}`);
    const approve = page.locator(`.approval[data-call-id="${pending.callId}"] button.approve`);
    await approve.waitFor();
    // ops reads the end-user view: the card number is not on the page, even to the approver.
    expect(await page.content()).not.toContain(CARD);
    await page.screenshot({ path: path.join(IMAGES, 'viewer-approval.png'), fullPage: true });

    await approve.click();
    await page.locator('.approval-approved').first().waitFor({ timeout: 20_000 });
    await page.locator('.run-meta .status', { hasText: 'completed' }).waitFor({ timeout: 20_000 });
    const { json } = await s.call('auditor', 'GET', `/v1/runs/${runId}/chain`);
    expect(json.chain.approvals).toEqual([expect.objectContaining({ callId: pending.callId, status: 'approved', decidedBy: expect.objectContaining({ id: 'ops' }) })]);
    expect(paid).toContainEqual(expect.objectContaining({ invoice: 'INV-7731', cardNumber: CARD }));
    await page.close();
  });

  it('shows an end user no sensitive argument, no tokens or cost, no decision they may not make, no auditor view', async () => {
    const runId = await start('user', 'end-user', 'Pay the Initech invoice INV-88', [
      { content: [say('I pay the Initech invoice.'), useTool('pay_invoice', { vendor: 'Initech', invoice: 'INV-88', amountUsd: 430, cardNumber: CARD })], usage, costUsd: 0.02 },
      { content: [useTool('finish', { result: 'Paid INV-88.' })], usage, costUsd: 0.01 },
    ]);
    const pending = await pendingApproval(runId);
    const page = await openAs('user', `/runs/${runId}`);
    await page.locator(`.approval[data-call-id="${pending.callId}"]`).waitFor();
    await page.locator('.step-title', { hasText: 'Tool call · pay_invoice' }).waitFor();

    const html = await page.content();
    expect(html).not.toContain(CARD);
    expect(html).not.toMatch(/\d in · \d+ out/);
    expect(await page.locator('.step-facts', { hasText: '$' }).count()).toBe(0);
    expect(await page.locator('.progress').textContent()).not.toContain('$');
    expect(await page.locator('button.approve').count()).toBe(0);
    expect(await page.getByText('Someone with one of the roles above has to decide.').count()).toBe(1);
    expect(await page.locator('#view option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(['end_user']);
    // The end user can still stop what they started.
    expect(await page.locator('button.cancel').count()).toBe(1);
    await page.screenshot({ path: path.join(IMAGES, 'viewer-end-user.png'), fullPage: true });

    const approved = await s.call('ops', 'POST', `/v1/runs/${runId}/approvals/${pending.callId}`, { approved: true, argumentsHash: (await s.call('auditor', 'GET', `/v1/runs/${runId}`)).json.pendingApprovals[0].argumentsHash });
    expect(approved.status).toBe(200);
    await page.locator('.run-meta .status', { hasText: 'completed' }).waitFor({ timeout: 20_000 });
    expect(await page.content()).not.toContain(CARD);
    await page.close();
  });

  it('shows the sign-in box for a refused token, and signs in with a good one', async () => {
    const page = await openAs('tl_not_a_real_token');
    await page.locator('.sign-in-form').waitFor();
    expect(await page.locator('.sign-in-form .error').textContent()).toMatch(/not valid/);
    expect(page.url()).not.toContain('tl_not_a_real_token');
    await page.locator('.sign-in-form input[name="token"]').fill(s.tokens.dev);
    await page.locator('.sign-in-form button[type="submit"]').click();
    await page.locator('table.runs').waitFor();
    await page.locator('table.runs tbody tr').first().waitFor();
    expect(await page.locator('.sign-in-form').count()).toBe(0);
    await page.close();
  });
});
