import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { defineTool } from '../../src/tools/define-tool';
import type { ModelProvider } from '../../src/activities';
import type { ReasoningStep } from '../../src/domain';
import { gateTool, taskOf } from '../helpers/people-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { eventually, routedModel, type Person } from '../server/server-harness';
import { launchChromium } from './headless-chromium';
import { DEMO_TASK, TEAM_AGENTS, TEAM_TASK } from '../../src/cli/commands/run-and-watch/demo';
import { weatherDemoTurn } from '../../src/demo/offline-weather-model';
import { weatherTool } from '../../src/demo/weather-tool';
import { createOfflineModel } from '../../src/offline/offline-model';
import { startViewerHarness, type ViewerHarness } from './viewer-harness';

const env = useTestEnv();
const model = routedModel();
const gate = gateTool();
const IMAGES = path.resolve(__dirname, '../../docs/images');
/** The docs' screenshots are rewritten only on request, so a test run leaves the tree clean. */
const SAVE_SCREENSHOTS = process.env.THOUGHTLINE_SCREENSHOTS === '1';
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

/** A quick read-only tool, for runs with many steps. */
const countRows = defineTool({
  name: 'count_rows',
  description: 'Counts the rows of a ledger table',
  input: z.object({ table: z.string() }),
  effects: 'none',
  execute: ({ table }) => ({ table, rows: table.length * 100 }),
});

/** A long scan that reports its progress once the test opens `scanning.start`, then holds until `scanning.done`. */
const scanning = { start: deferred(), done: deferred() };
const scanLedger = defineTool({
  name: 'scan_ledger',
  description: 'Scans a ledger for duplicate payments',
  input: z.object({ table: z.string() }),
  timeoutMs: 60_000,
  execute: async ({ table }, ctx) => {
    await scanning.start.promise;
    ctx.progress({ message: `scanned 400 of 1,000 rows of ${table}`, fraction: 0.4 });
    await scanning.done.promise;
    return { table, duplicates: 0 };
  },
});

/**
 * The routed model, except that a `[typing]` run's first call writes its text as deltas: after
 * the test opens `typing.start` (the page is watching), then holds until `typing.done` opens.
 */
const typing = { start: deferred(), done: deferred() };
const offline = createOfflineModel([weatherDemoTurn]);
/** The demo's tasks (and the team demo's sub-agents') go to the offline model, as `npm run demo` runs them. */
const isDemoTask = (task: string) =>
  task === DEMO_TASK || task === TEAM_TASK || task.startsWith('Get the current weather in ');
const provider: ModelProvider = {
  name: 'scripted',
  async complete(request, signal, hooks) {
    if (isDemoTask(taskOf(request))) return offline.complete(request, signal, hooks);
    if (taskOf(request).includes('[typing]') && request.messages.length === 1) {
      await typing.start.promise;
      hooks?.onTextDelta?.('Drafting the October ');
      hooks?.onTextDelta?.('summary for the CFO.');
      await typing.done.promise;
    }
    return model.complete(request, signal, hooks);
  },
};

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

let s: ViewerHarness;
const pageErrors: string[] = [];
let browser: { context: BrowserContext; close(): Promise<void> };

beforeAll(async () => {
  s = await startViewerHarness(env, {
    tools: [gate.tool, payInvoice, countRows, scanLedger, weatherTool],
    model: provider,
  });
  browser = await launchChromium();
});
afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});
afterAll(async () => {
  // A test that failed while a tool or the model was held leaves its activity waiting: let it end,
  // so the worker stops at once instead of holding this hook past its limit.
  for (const held of [scanning.start, scanning.done, typing.start, typing.done]) held.resolve();
  await browser?.close();
  await s?.close();
});

/** Waits until the run page follows the run over its event stream; if it never does, says what the page showed instead. */
async function followingLive(page: Page, timeout = 30_000): Promise<void> {
  try {
    await page.locator('.live-state[data-live="sse"]').waitFor({ timeout });
  } catch (err) {
    const live = page.locator('.live-state').first();
    const shown = await Promise.all([
      live.getAttribute('data-live', { timeout: 2_000 }),
      live.textContent({ timeout: 2_000 }),
      page.locator('.message').allTextContents(),
    ]).catch((e: unknown) => String(e));
    throw new Error(`the run page did not follow its event stream within ${timeout} ms: ${JSON.stringify(shown)}`, {
      cause: err,
    });
  }
}

/** Starts a run over HTTP as `who`; its model plays `turns` (the task carries the script's key). */
async function start(
  who: Person,
  key: string,
  task: string,
  turns: Parameters<typeof model.script>[1],
  extra: Record<string, unknown> = {},
): Promise<string> {
  model.script(key, turns);
  const started = await s.call(who, 'POST', '/v1/runs', {
    task: `${task} [${key}]`,
    model: SCRIPTED_MODEL,
    agentName: 'accounts-payable',
    ...extra,
  });
  expect(started.status).toBe(201);
  return started.json.runId as string;
}

/** A run that says `saying`, then waits in its tool until the test opens the gate `key`, then answers `answer`. */
async function startGated(key: string, task: string, saying: string, answer: string): Promise<string> {
  const runId = await start('dev', key, task, [
    { content: [say(saying), useTool('wait_for_gate', { gate: key })] },
    { content: [useTool('finish', { result: answer })] },
  ]);
  await eventually('the gate tool to start', async () => gate.started(key) || undefined);
  return runId;
}

/**
 * A tab signed in as `who` (the token in the fragment, as `serve` prints it), at `route`;
 * `prepare` runs on the tab before it loads (to answer some of its requests itself).
 */
async function openAs(who: Person | string, route = '/', prepare?: (page: Page) => Promise<unknown>): Promise<Page> {
  const page = await browser.context.newPage();
  await prepare?.(page);
  // Any uncaught error or CSP violation on any page fails the test that opened it.
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      pageErrors.push(message.text());
  });
  const token = who in s.tokens ? s.tokens[who as Person] : who;
  await page.goto(`${s.server.url}/#token=${encodeURIComponent(token)}&${route}`);
  return page;
}

/**
 * Answers the tab's first `times` GETs of a path `matches` with 503, as a server whose worker or
 * Temporal could not answer does; `count` says how many it answered so, and raising `times`
 * refuses more.
 */
async function unavailableFirst(page: Page, matches: (path: string) => boolean, times = 1) {
  const refused = { count: 0, times };
  await page.route(
    (url) => matches(url.pathname),
    (route) => {
      if (refused.count >= refused.times || route.request().method() !== 'GET') return route.continue();
      refused.count += 1;
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'unavailable', message: 'No worker answered in time; retry.' } }),
      });
    },
  );
  return refused;
}

async function pendingApproval(runId: string): Promise<{ callId: string }> {
  return eventually('a pending approval', async () => {
    const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
    return json.pendingApprovals?.[0];
  });
}

/** A full-page PNG of what the person sees; saved to docs/images (when named) with THOUGHTLINE_SCREENSHOTS=1. */
async function screenshot(page: Page, file?: string): Promise<void> {
  await check(page.screenshot({ fullPage: true, ...saveTo(file) }));
}

/** A PNG of one part of the page (or of the window, not the whole page): a long page's picture stays small. */
async function screenshotOf(target: Page | Locator, file: string): Promise<void> {
  await check(target.screenshot(saveTo(file)));
}

const saveTo = (file: string | undefined) => (SAVE_SCREENSHOTS && file ? { path: path.join(IMAGES, file) } : {});
async function check(shot: Promise<Buffer>): Promise<void> {
  const png = await shot;
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.length).toBeGreaterThan(20_000);
}

const usage = { inputTokens: 1840, outputTokens: 96 };
/** The claims of the answer on top marked `standing` (each mark's own text, without the screen reader's). */
const marked = (page: Page, standing: string) =>
  page
    .locator(`.ending .marked-answer mark.claim-${standing}`)
    .evaluateAll((els) =>
      els.map((el) => (el as unknown as { firstChild?: { textContent: string } }).firstChild?.textContent),
    );
/** The run's own steps in its iteration cards (not a sub-agent's, folded under a call). */
const OWN_STEPS = '.chain > .steps > .iteration > .iteration-body > .iteration-steps >';

/** Starts a run of the demo over HTTP, as `npm run demo` (`--team`) does, and waits for it to end. */
async function demoRun(team: boolean): Promise<string> {
  const started = await s.call('dev', 'POST', '/v1/runs', {
    task: team ? TEAM_TASK : DEMO_TASK,
    model: SCRIPTED_MODEL,
    ...(team ? { agentName: 'weather_lead', agents: TEAM_AGENTS, tokenBudget: 200_000 } : { agentName: 'weather' }),
  });
  expect(started.status).toBe(201);
  const runId = started.json.runId as string;
  await eventually('the demo run to end', async () => {
    const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
    return json.status === 'completed' ? json : undefined;
  });
  return runId;
}

describe('the chain viewer in Chromium', () => {
  it("shows a run's steps as they land, without a reload, with tokens, cost and the progress line", async () => {
    const runId = await start('dev', 'live', 'Reconcile the October vendor statements', [
      {
        content: [say('First I wait for the ledger export to finish.'), useTool('wait_for_gate', { gate: 'ledger' })],
        usage,
        costUsd: 0.0123,
      },
      {
        content: [
          say('The export is there; the statements reconcile.'),
          useTool('finish', { result: 'All 14 October statements reconcile with the ledger.' }),
        ],
        usage,
        costUsd: 0.0117,
      },
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
    // Live over the event stream (the page polls the chain only where a server answers it 503).
    await followingLive(page);

    // Steer while the tool works: the instruction joins the chain as the person's step.
    await page.locator('.steer-text').fill('Also list any statement older than 90 days.');
    await page.locator('form.steer button').click();
    await page.locator('.run-head .message', { hasText: 'Sent.' }).waitFor();

    gate.release('ledger');
    await page.locator('.step-title', { hasText: 'Result · wait_for_gate' }).waitFor({ timeout: 20_000 });
    await page.locator('.result', { hasText: 'gate ledger opened' }).waitFor();
    await page.locator('.thought', { hasText: 'The export is there; the statements reconcile.' }).waitFor();
    await page.locator('.run-meta .status[data-state="completed"]').waitFor({ timeout: 20_000 });
    expect(await page.locator('.progress').textContent()).toMatch(/ · \$0\.02$/);
    await page.locator('.live-state[data-live="ended"]').waitFor();
    await page.locator('.step-title', { hasText: 'From dev (steer)' }).waitFor();
    // The view selector offers a developer their views, never the auditor's.
    expect(
      (
        await page
          .locator('#view option')
          .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value))
      ).sort(),
    ).toEqual(['developer', 'end_user']);
    await screenshot(page);
    await page.close();
  });

  it('never titles an answer with no tool result behind it "Final answer" (issue 46)', async () => {
    const bad = { content: [say('Thought: I should check.\nAction: get_weather')] };
    const summary = 'The weather in Paris is indeed very hot and sunny.';
    const stalled = await start(
      'dev',
      'ga-stalled',
      'What is the weather in Paris?',
      [bad, bad, bad, bad, { content: [say(summary)] }],
      {
        strategy: 'react-text',
        stallThreshold: 3,
      },
    );
    const page = await openAs('dev', `/runs/${stalled}`);
    await page.locator('.run-meta .status[data-state="completed"]').waitFor({ timeout: 20_000 });
    const card = page.locator('article.step-synthesis');
    await card.locator('.conclusion', { hasText: summary }).waitFor();
    expect(await card.locator('.step-title').textContent()).toBe('Ungrounded summary (stalled)');
    expect(await card.locator('.badge-ungrounded').textContent()).toBe('ungrounded');
    expect(await card.locator('.grounding-note').textContent()).toContain('No tool result stands behind this summary');
    expect(await page.locator('.step-title', { hasText: 'Final answer' }).count()).toBe(0);

    // A tool-backed answer is the final answer.
    const backed = await start('dev', 'ga-tool', 'Count the ledger rows', [
      { content: [say('I count the ledger.'), useTool('count_rows', { table: 'ledger' })] },
      { content: [say('Counted.'), useTool('finish', { result: 'The ledger has 600 rows.' })] },
    ]);
    await page.goto(`${s.server.url}/#/runs/${backed}`);
    await page
      .locator('article.step-synthesis .conclusion', { hasText: 'The ledger has 600 rows.' })
      .waitFor({ timeout: 20_000 });
    expect(await page.locator('article.step-synthesis .step-title').textContent()).toBe('Final answer');
    expect(await page.locator('article.step-synthesis .badge-final').textContent()).toBe('grounded');

    // A sub-agent that called no tool: neither its answer nor the parent's, which rests on it, is grounded.
    model.script('ga-child', [
      { content: [say('I know this one.'), useTool('finish', { result: 'Globex Ltd, registered 2011.' })] },
    ]);
    const delegated = await start(
      'dev',
      'ga-parent',
      'Check the vendor',
      [
        { content: [say('I ask the researcher.'), useTool('researcher', { task: 'Find Globex [ga-child]' })] },
        { content: [say('It answered.'), useTool('finish', { result: 'Globex is registered.' })] },
      ],
      { agents: { researcher: { description: 'Looks companies up', model: SCRIPTED_MODEL, tools: [] } } },
    );
    await page.goto(`${s.server.url}/#/runs/${delegated}`);
    await page
      .locator('article.step-synthesis .conclusion', { hasText: 'Globex is registered.' })
      .waitFor({ timeout: 20_000 });
    await page.locator('.sub-agents .sub-agent-link', { hasText: 'unsupported answer' }).waitFor();
    // The parent's own answer (the child's, shown live in its fold, is titled the same).
    expect(await page.locator(`${OWN_STEPS} article.step-synthesis .step-title`).textContent()).toBe(
      'Answer, no tool result behind it',
    );
    await page.close();
  });

  it('shows model text as it arrives, replaced by the step when it lands', async () => {
    const runId = await start('dev', 'typing', 'Draft the October summary', [
      {
        content: [say('Drafting the October summary for the CFO.'), useTool('finish', { result: 'Summary drafted.' })],
      },
    ]);
    const page = await openAs('dev', `/runs/${runId}`);
    await followingLive(page);
    typing.start.resolve();
    // The last word is held until the reply ends (a value split over deltas never goes out in parts).
    await page.locator('.step-live .live-text', { hasText: 'Drafting the October summary for the' }).waitFor();
    expect(await page.locator('.step-live .live-text').textContent()).not.toContain('CFO.');
    expect(await page.locator('.thought', { hasText: 'Drafting the October' }).count()).toBe(0);
    typing.done.resolve();
    await page
      .locator('.thought', { hasText: 'Drafting the October summary for the CFO.' })
      .waitFor({ timeout: 20_000 });
    await page.locator('.live-state[data-live="ended"]').waitFor({ timeout: 20_000 });
    expect(await page.locator('.step-live').count()).toBe(0);
    await page.close();
  });

  it("shows a running tool's progress bar under its call, gone when its result lands", async () => {
    const runId = await start('dev', 'scanning', 'Check the ledger for duplicates', [
      { content: [say('I will scan the payments ledger.'), useTool('scan_ledger', { table: 'payments' })] },
      { content: [say('No duplicates found.'), useTool('finish', { result: 'No duplicates.' })] },
    ]);
    const page = await openAs('dev', `/runs/${runId}`);
    await followingLive(page);
    scanning.start.resolve();
    const bar = page.locator('.tool-progress', { hasText: 'scan_ledger 40%' });
    await bar.waitFor({ timeout: 20_000 });
    expect(await bar.textContent()).toContain('scanned 400 of 1,000 rows of payments');
    expect(await bar.locator('progress').getAttribute('value')).toBe('0.4');
    scanning.done.resolve();
    await page.locator('.live-state[data-live="ended"]').waitFor({ timeout: 20_000 });
    expect(await page.locator('.tool-progress').count()).toBe(0);
    await page.close();
  });

  it('approves a pending call from its Approve button: the record is approved and the run goes on', async () => {
    const runId = await start('dev', 'approve', 'Pay the Globex invoice INV-7731', [
      {
        content: [
          say('The invoice is due today; I pay it.'),
          useTool('pay_invoice', { vendor: 'Globex', invoice: 'INV-7731', amountUsd: 1200, cardNumber: CARD }),
        ],
      },
      { content: [useTool('finish', { result: 'Paid INV-7731 (PAY-20931).' })] },
    ]);
    const pending = await pendingApproval(runId);
    const page = await openAs('ops', `/runs/${runId}`);
    const approve = page.locator(`.approval[data-call-id="${pending.callId}"] button.approve`);
    await approve.waitFor();
    // ops reads the end-user view: the card number is not on the page, even to the approver.
    expect(await page.content()).not.toContain(CARD);
    await screenshot(page, 'viewer-approval.png');

    await approve.click();
    await page.locator('.approval-approved').first().waitFor({ timeout: 20_000 });
    await page.locator('.run-meta .status[data-state="completed"]').waitFor({ timeout: 20_000 });
    const { json } = await s.call('auditor', 'GET', `/v1/runs/${runId}/chain`);
    expect(json.chain.approvals).toEqual([
      expect.objectContaining({
        callId: pending.callId,
        status: 'approved',
        decidedBy: expect.objectContaining({ id: 'ops' }),
      }),
    ]);
    expect(paid).toContainEqual(expect.objectContaining({ invoice: 'INV-7731', cardNumber: CARD }));
    await page.close();

    // The auditor reads the whole record, the card number and who approved it included...
    const audit = await openAs('auditor', `/runs/${runId}`);
    await audit.locator('.approval-approved .approval-decided', { hasText: 'Approved by ops' }).waitFor();
    expect(await audit.locator('.step-tool_call .json-string', { hasText: CARD }).count()).toBeGreaterThan(0);
    expect(
      (
        await audit
          .locator('#view option')
          .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value))
      ).sort(),
    ).toEqual(['auditor', 'developer', 'end_user']);
    // ...and switching to the end-user view shows what an end user gets: no card number.
    await audit.locator('#view').selectOption('end_user');
    await audit.locator('.view-note', { hasText: 'End-user view' }).waitFor();
    await audit.locator('.step-title', { hasText: 'Tool call · pay_invoice' }).waitFor();
    expect(await audit.content()).not.toContain(CARD);
    await audit.close();
  });

  it('shows an end user no sensitive argument, no tokens or cost, no decision they may not make, no auditor view', async () => {
    const runId = await start('user', 'end-user', 'Pay the Initech invoice INV-88', [
      {
        content: [
          say('I pay the Initech invoice.'),
          useTool('pay_invoice', { vendor: 'Initech', invoice: 'INV-88', amountUsd: 430, cardNumber: CARD }),
        ],
        usage,
        costUsd: 0.02,
      },
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
    expect(
      await page
        .locator('#view option')
        .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value)),
    ).toEqual(['end_user']);
    // The end user can still stop what they started.
    expect(await page.locator('button.cancel').count()).toBe(1);
    await screenshot(page, 'viewer-end-user.png');

    // The end user stops the payment they asked for.
    await page.locator('button.cancel').click();
    await page.locator('.cancel-reason').fill('Initech sent a corrected invoice.');
    await page.locator('.cancel-form button[type="submit"]').click();
    await page
      .locator('.run-meta .status:is([data-state="cancelled"], [data-state="completed"])')
      .waitFor({ timeout: 20_000 });
    const { json } = await s.call('auditor', 'GET', `/v1/runs/${runId}/chain`);
    expect(json.chain.steps).toContainEqual(expect.objectContaining({ fromPerson: { kind: 'cancel', by: 'user' } }));
    expect(paid).not.toContainEqual(expect.objectContaining({ invoice: 'INV-88' }));
    expect(await page.content()).not.toContain(CARD);
    await page.close();
  });

  it('rejects a call with the reason the approver gives: the run reads it and goes on', async () => {
    const runId = await start('dev', 'reject', 'Pay the Umbrella invoice INV-12', [
      {
        content: [
          say('Calling pay_invoice for the task.'),
          useTool('pay_invoice', { vendor: 'Umbrella', invoice: 'INV-12', amountUsd: 99_000, cardNumber: CARD }),
        ],
      },
      { content: [useTool('finish', { result: 'Not paid: the approver refused.' })] },
    ]);
    const pending = await pendingApproval(runId);
    const page = await openAs('ops', `/runs/${runId}`);
    const box = page.locator(`.approval[data-call-id="${pending.callId}"]`);
    await box.locator('button.reject').click();
    // No reason, no rejection: the agent needs to know why.
    await box.locator('.reject-form button[type="submit"]').click();
    await box.locator('.approval-message', { hasText: 'Say why' }).waitFor();
    await box.locator('.reject-reason').fill('Amount is 100x the usual Umbrella invoice.');
    await box.locator('.reject-form button[type="submit"]').click();
    await page
      .locator('.approval-rejected .approval-decided', { hasText: 'Amount is 100x the usual Umbrella invoice.' })
      .waitFor({ timeout: 20_000 });
    await page.locator('.run-meta .status[data-state="completed"]').waitFor({ timeout: 20_000 });
    const { json } = await s.call('auditor', 'GET', `/v1/runs/${runId}/chain`);
    expect(json.chain.approvals[0]).toMatchObject({
      status: 'rejected',
      note: 'Amount is 100x the usual Umbrella invoice.',
      decidedBy: { id: 'ops' },
    });
    expect(paid).not.toContainEqual(expect.objectContaining({ invoice: 'INV-12' }));
    await page.close();
  });

  it('opens a long chain on its latest steps and loads earlier ones on request', async () => {
    const turns = Array.from({ length: 13 }, (_, i) => ({
      content: [say(`Counting ledger table ${i + 1}.`), useTool('count_rows', { table: `ledger_${i + 1}` })],
    }));
    const runId = await start(
      'dev',
      'long',
      'Count every ledger table',
      [...turns, { content: [useTool('finish', { result: 'Counted 13 tables.' })] }],
      { maxIterations: 20 },
    );
    const total = (
      await eventually('the long run to end', async () => {
        const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
        return json.status === 'completed' ? json : undefined;
      })
    ).stepCount as number;
    expect(total).toBeGreaterThan(60);

    const page = await openAs('dev', `/runs/${runId}`);
    await page.locator(`#step-${total}`).waitFor();
    expect(await page.locator('.steps .step').count()).toBe(50);
    expect(await page.locator('#step-1').count()).toBe(0);
    await page.locator('button.earlier').click();
    // Step 1 is the first model call: in the page, folded in iteration 1's card.
    await page.locator('#step-1').waitFor({ state: 'attached' });
    expect(await page.locator('section.iteration[data-iteration="1"] details.model-call #step-1').count()).toBe(1);
    expect(await page.locator('.steps .step').count()).toBe(total);
    expect(await page.locator('button.earlier').isHidden()).toBe(true);
    // In step order, top to bottom.
    const numbers = await page
      .locator('.steps .step')
      .evaluateAll((els) => els.map((el) => Number((el as unknown as { dataset: { step: string } }).dataset.step)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    await page.close();
  });

  it('opens a running run whose first reads the server could not answer (503), then follows it live', async () => {
    const runId = await startGated('reopen', 'Count the imported ledger', 'Waiting for the import.', 'Imported.');
    // The run's status, as a server whose worker did not answer in time says it: twice, then as it is.
    let refused = { count: 0 };
    const page = await openAs('dev', `/runs/${runId}`, async (tab) => {
      refused = await unavailableFirst(tab, (path) => path === `/v1/runs/${encodeURIComponent(runId)}`, 2);
    });
    await page.locator('.message.error', { hasText: 'No worker answered in time' }).waitFor();
    await followingLive(page, 20_000);
    expect(refused.count).toBe(2);
    expect(await page.locator('.message.error').count()).toBe(0);
    await page.locator('.thought', { hasText: 'Waiting for the import.' }).waitFor();
    gate.release('reopen');
    await page.locator('.live-state[data-live="ended"]').waitFor({ timeout: 20_000 });
    // Its timeline, the same.
    const timelineRefused = await unavailableFirst(page, (path) => path.endsWith('/timeline'));
    await page.locator('a.timeline-link').click();
    await page.locator('.panel .message.error', { hasText: 'trying again in 500 ms' }).waitFor();
    await page.locator('svg.waterfall g.bar').first().waitFor({ timeout: 20_000 });
    expect(timelineRefused.count).toBe(1);
    expect(await page.locator('.message.error').count()).toBe(0);
    await page.close();
  });

  it('follows a run by reading its chain every 2 s on a server without the stream, and shows a failed read until one answers', async () => {
    const runId = await startGated('polled', 'Count the exported ledger', 'Waiting for the export.', 'Exported.');
    const chainPath = `/v1/runs/${encodeURIComponent(runId)}/chain`;
    let chainRefused = { count: 0, times: 0 };
    const page = await openAs('dev', `/runs/${runId}`, async (tab) => {
      // The stream answers 503, as a server without it (or at its cap of streams) does.
      await unavailableFirst(tab, (path) => path.endsWith('/events'), Number.MAX_SAFE_INTEGER);
      chainRefused = await unavailableFirst(tab, (path) => path === chainPath, 0);
    });
    await page.locator('.live-state[data-live="poll"]', { hasText: 'refreshing every 2 s' }).waitFor();
    await page.locator('.thought', { hasText: 'Waiting for the export.' }).waitFor();
    // The next chain read fails: the page says so, and the read after it takes the failure away.
    chainRefused.times = 1;
    await page.locator('.message.error', { hasText: 'No worker answered in time' }).waitFor({ timeout: 20_000 });
    await expect.poll(() => page.locator('.message.error').count(), { timeout: 20_000 }).toBe(0);
    expect(chainRefused.count).toBe(1);
    gate.release('polled');
    await page.locator('.conclusion', { hasText: 'Exported.' }).waitFor({ timeout: 20_000 });
    await page.locator('.live-state[data-live="ended"]').waitFor({ timeout: 20_000 });
    await page.close();
  });

  it('says a run it may not read is not there, and does not ask again', async () => {
    const statusReads: string[] = [];
    const page = await openAs('dev', '/runs/no-such-run', async (tab) => {
      tab.on('request', (request) => {
        if (new URL(request.url()).pathname === '/v1/runs/no-such-run') statusReads.push(request.url());
      });
    });
    await page.locator('.message.error').waitFor();
    // A retry would come after 0.5 s.
    await page.waitForTimeout(1_500);
    expect(statusReads).toHaveLength(1);
    expect(await page.locator('.live-state').getAttribute('data-live')).toBe('off');
    await page.close();
  });

  it("folds out a sub-agent's chain under the call that delegated to it", async () => {
    model.script('child-research', [
      {
        content: [
          say('Looking the vendor up in the register.'),
          useTool('finish', { result: 'Globex Ltd, registered 2011.' }),
        ],
      },
    ]);
    const runId = await start(
      'dev',
      'parent-research',
      'Check the vendor before paying',
      [
        {
          content: [
            say('Calling researcher for the task.'),
            useTool('researcher', { task: 'Find Globex in the company register [child-research]' }),
          ],
        },
        { content: [useTool('finish', { result: 'Globex is registered; safe to pay.' })] },
      ],
      { agents: { researcher: { description: 'Looks companies up', model: SCRIPTED_MODEL, tools: [] } } },
    );
    await eventually('the parent to end', async () => {
      const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
      return json.status === 'completed' ? json : undefined;
    });
    const page = await openAs('dev', `/runs/${runId}`);
    const fold = page.locator('details.sub-agent').first();
    await fold.waitFor();
    expect(await page.locator('.sub-agents .sub-agent-link', { hasText: 'researcher' }).count()).toBe(1);
    await fold.locator('summary').click();
    await fold.locator('.thought', { hasText: 'Looking the vendor up in the register.' }).waitFor();
    // The child's own page is one click away.
    await fold.locator('a', { hasText: 'Open the sub-agent' }).click();
    await page.locator('.run-title', { hasText: 'Find Globex in the company register' }).waitFor();
    await page.close();
  });

  it("reads the demo's run as a trace: three iteration cards, model calls folded, a waterfall, the answer's grounding on top", async () => {
    const runId = await demoRun(false);
    const page = await openAs('dev', `/runs/${runId}`);
    await page.locator('.ending .marked-answer').waitFor();
    const cards = page.locator('.chain > .steps > section.iteration');
    expect(
      await cards.evaluateAll((els) =>
        els.map((el) => (el as unknown as { dataset: { iteration: string } }).dataset.iteration),
      ),
    ).toEqual(['1', '2', '3']);
    // One fold per model call, closed, saying which model answered, its tokens and latency.
    const folds = page.locator('section.iteration details.model-call');
    expect(await folds.count()).toBe(3);
    expect(await folds.evaluateAll((els) => els.map((el) => (el as unknown as { open: boolean }).open))).toEqual([
      false,
      false,
      false,
    ]);
    const first = folds.first();
    expect(await first.locator(':scope > summary').textContent()).toMatch(
      /^Model call · offline-model \(asked for scripted-model\) · \d+ in · \d+ out · \$0\.00 · \d+ ms$/,
    );
    expect(await first.getAttribute('data-model')).toBe('offline-model');
    // The answer and the first cards, as a newcomer's first look at the page shows them.
    await page.setViewportSize({ width: 1100, height: 1500 });
    await screenshotOf(page, 'viewer-run.png');
    // The call's request is behind the fold until someone opens it.
    expect(await first.locator('article[data-type="tool_call"]').isVisible()).toBe(false);
    await first.locator(':scope > summary').click();
    expect(await first.locator('article[data-type="tool_call"]').isVisible()).toBe(true);
    // Thought, action and observation stand in the card, unfolded.
    const one = cards.first();
    await one.locator('.thought', { hasText: 'I need current weather for San Francisco' }).waitFor();
    expect(await one.locator('.iteration-steps > article .step-title').allTextContents()).toEqual([
      'Thinking',
      'Tool call · get_weather',
      'Result · get_weather',
    ]);
    expect(await one.locator('.iteration-facts').textContent()).toMatch(
      /^offline-model · \d+ in · \d+ out · \$0\.00 · \d+ ms · get_weather$/,
    );
    // Each card's waterfall: the model call, then the tool call.
    expect(
      await one
        .locator('svg.iteration-chart g.bar')
        .evaluateAll((els) => els.map((el) => (el as unknown as { dataset: { kind: string } }).dataset.kind)),
    ).toEqual(['model', 'tool']);
    expect(await one.locator('svg.iteration-chart g.bar title').first().textContent()).toMatch(
      /^Model call: offline-model · \d+ ms \(step 1\)$/,
    );
    // The answer on top: every claim it makes marked, each backed by a step, and what stands behind it.
    const answer = page.locator('.ending .marked-answer');
    expect(await answer.locator('h4').textContent()).toBe('Final answer');
    expect(await marked(page, 'ok')).toEqual([
      'San Francisco',
      '18°C',
      'cloudy',
      'Paris',
      '12°C',
      'rain',
      'San Francisco is the warmest',
      '6',
    ]);
    expect(await answer.locator('mark.claim-unsupported, mark.claim-unchecked, mark.claim-contradicted').count()).toBe(
      0,
    );
    expect(await answer.locator('.grounding-note').textContent()).toBe('Drawn from 2 tool results.');
    // A claim's link opens the step behind it, on this page.
    await answer.locator('mark.claim-ok a', { hasText: '12°C' }).click();
    expect(page.url()).toContain(`#/runs/${runId}`);
    await page.close();
  });

  it("shows the team demo's sub-agents as a tree, each open to its own iterations, and the claims at fault in the answer", async () => {
    const runId = await demoRun(true);
    const page = await openAs('dev', `/runs/${runId}`);
    await page.locator('.ending .marked-answer').waitFor();
    const lead = page.locator('.chain > .steps > section.iteration[data-iteration="1"]');
    const children = lead.locator('details.sub-agent');
    expect(await children.count()).toBe(3);
    expect(await lead.locator('svg.iteration-chart g.bar[data-kind="sub_agent"]').count()).toBe(3);
    // Each child folds out to its own iteration cards, its model calls folded the same way.
    const child = children.first();
    await child.locator('summary').first().click();
    const childCards = child.locator('.sub-agent-body > .trace > section.iteration');
    await childCards.first().waitFor();
    expect(await childCards.count()).toBe(2);
    expect(await child.locator('section.iteration details.model-call').count()).toBe(2);
    await child.locator('section.iteration .step-title', { hasText: 'Tool call · get_weather' }).waitFor();
    // The lead's answer: the difference it computed is marked unsupported, its conclusion unchecked.
    const answer = page.locator('.ending .marked-answer');
    expect(await answer.locator('h4').textContent()).toBe('Answer, partly grounded');
    expect(await marked(page, 'unsupported')).toEqual(['12']);
    expect(await marked(page, 'unchecked')).toEqual(['Tokyo is the warmest']);
    expect(await answer.locator('mark.claim-unsupported').getAttribute('title')).toBe('nothing supports this');
    expect(await answer.locator('mark.claim-ok').count()).toBe(9);
    // The lead's first iteration down to the opened child's first card: the tree, in a small picture.
    // (Boxes are in the window's coordinates; a full-page clip is in the page's.)
    const scrolled = await page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY);
    const box = (await lead.boundingBox())!;
    const upTo = (await childCards.first().boundingBox())!;
    box.y += scrolled;
    upTo.y += scrolled;
    await check(
      page.screenshot({
        fullPage: true,
        clip: { x: box.x, y: box.y, width: box.width, height: upTo.y + upTo.height + 12 - box.y },
        ...saveTo('viewer-team.png'),
      }),
    );
    await page.close();
  });

  it("shows a running sub-agent's steps under the call that delegated to it, as they come", async () => {
    model.script('deleg-child', [
      {
        content: [
          say('Waiting for the register to answer.'),
          useTool('wait_for_gate', { gate: 'register' }, 'call_register'),
        ],
      },
      { content: [useTool('finish', { result: 'Initech Ltd, registered 2009.' })] },
    ]);
    const runId = await start(
      'dev',
      'deleg-parent',
      'Check another vendor before paying',
      [
        {
          content: [
            say('Calling researcher for the task.'),
            useTool('researcher', { task: 'Find Initech in the company register [deleg-child]' }),
          ],
        },
        { content: [useTool('finish', { result: 'Initech is registered; safe to pay.' })] },
      ],
      {
        agents: { researcher: { description: 'Looks companies up', model: SCRIPTED_MODEL, tools: ['wait_for_gate'] } },
      },
    );
    const page = await openAs('dev', `/runs/${runId}`);
    // The child waits on its gate: it is running, and its steps so far show in the open fold.
    const fold = page.locator('details.sub-agent').first();
    await fold.locator('.sub-agent-live .thought', { hasText: 'Waiting for the register to answer.' }).waitFor();
    await fold.locator('.sub-agent-live .step-title', { hasText: 'Tool call · wait_for_gate' }).waitFor();
    expect(gate.started('register')).toBe(true);
    expect(await fold.evaluate((el) => (el as unknown as { open: boolean }).open)).toBe(true);
    expect(await fold.locator(':scope > summary').textContent()).toMatch(/Sub-agent researcher .*steps so far, live/);
    // Its steps do not take the parent's step anchors.
    expect(await page.locator('#step-1').count()).toBe(1);
    gate.release('register');
    await fold
      .locator('.sub-agent-live .step-title', { hasText: 'Result · wait_for_gate' })
      .waitFor({ timeout: 20_000 });
    await page.locator('.live-state[data-live="ended"]').waitFor({ timeout: 20_000 });
    await page.close();
  });

  it('shows the plan as a checklist that ticks off as the run reports progress', async () => {
    const tasks = [
      { id: 't1', description: 'Export the ledger', dependencies: [] },
      { id: 't2', description: 'Match each statement', dependencies: ['t1'] },
    ];
    const runId = await start(
      'dev',
      'plan',
      'Reconcile with a plan',
      [
        { content: [say(`Here is the plan:\n\`\`\`json\n${JSON.stringify({ tasks })}\n\`\`\``)] },
        {
          content: [
            say('Calling update_task for the task.'),
            useTool('update_task', { task_id: 't1', status: 'completed' }),
            useTool('wait_for_gate', { gate: 'plan' }),
          ],
        },
        {
          content: [
            say('Calling update_task for the task.'),
            useTool('update_task', { task_id: 't2', status: 'completed' }),
          ],
        },
        { content: [useTool('finish', { result: 'Reconciled.' })] },
      ],
      { planning: { reflectEvery: 0 } },
    );
    await eventually('the plan gate to start', async () => gate.started('plan') || undefined);
    const page = await openAs('dev', `/runs/${runId}`);
    await page.locator('.plan .task-completed', { hasText: 'Export the ledger' }).waitFor();
    expect(await page.locator('.plan .task-completed', { hasText: 'Match each statement' }).count()).toBe(0);
    gate.release('plan');
    await page.locator('.plan .task-completed', { hasText: 'Match each statement' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('.plan .checklist li').allTextContents()).toEqual([
      '✓ Export the ledger (completed)',
      '✓ Match each statement (completed)',
    ]);
    await page.close();
  });

  it("answers the agent's question from the page", async () => {
    const runId = await start(
      'user',
      'question',
      'Reconcile the statements',
      [
        {
          content: [
            say('Calling ask_person for the task.'),
            useTool('ask_person', { question: 'Which quarter should I reconcile?' }),
          ],
        },
        { content: [useTool('finish', { result: 'Reconciled Q3.' })] },
      ],
      { allowQuestions: true },
    );
    const page = await openAs('user', `/runs/${runId}`);
    await page
      .locator('.question .question-text', { hasText: 'Which quarter should I reconcile?' })
      .waitFor({ timeout: 20_000 });
    await page.locator('.answer-text').fill('Q3, please.');
    await page.locator('form.answer button').click();
    await page.locator('.run-meta .status[data-state="completed"]').waitFor({ timeout: 20_000 });
    expect(await page.locator('.question').isHidden()).toBe(true);
    const { json } = await s.call('auditor', 'GET', `/v1/runs/${runId}/chain`);
    expect(json.chain.steps).toContainEqual(expect.objectContaining({ fromPerson: { kind: 'answer', by: 'user' } }));
    await page.close();
  });

  it('shows a run paused at its budget, what it spent, and raises it from the page', async () => {
    const runId = await start(
      'ops',
      'budget',
      'Count the ledger rows',
      [
        { content: [say('Counting.'), useTool('count_rows', { table: 'ledger' })] },
        { content: [useTool('finish', { result: '600 rows.' })] },
      ],
      // ops raises: the run names it (by default only developers and operators raise).
      { maxIterations: 1, onBudget: 'ask', budgetRaiserRoles: ['ops'] },
    );
    const page = await openAs('ops', `/runs/${runId}`);
    await page
      .locator('.budget-pause .budget-message', { hasText: 'All 1 iterations are spent.' })
      .waitFor({ timeout: 20_000 });
    expect(await page.locator('.budget-pause .budget-spent').textContent()).toMatch(
      // ops holds no developer role: the end user's view, which leaves the tools' names out.
      /^Spent 120 tokens, \$0\.0000, 1 iterations, 1 model calls\. Waits until \d{4}-/,
    );
    if (SAVE_SCREENSHOTS) await page.screenshot({ path: path.join(IMAGES, 'viewer-budget-pause.png') });
    await page.locator('.raise-amount').fill('1');
    await page.locator('form.raise-budget button[type="submit"]').click();
    await page.locator('.run-meta .status[data-state="completed"]').waitFor({ timeout: 20_000 });
    expect(await page.locator('.budget-pause').isHidden()).toBe(true);
    const { json } = await s.call('auditor', 'GET', `/v1/runs/${runId}/chain`);
    expect(json.chain.steps).toContainEqual(expect.objectContaining({ fromPerson: { kind: 'budget', by: 'ops' } }));
    await page.close();
  });

  it('sends a person whose token is revoked mid-session back to the sign-in box', async () => {
    const page = await openAs('solo');
    await page.locator('table.runs').waitFor();
    const tokens = JSON.parse(fs.readFileSync(s.tokenFile, 'utf8')) as { tokens: Array<{ id: string }> };
    fs.writeFileSync(s.tokenFile, JSON.stringify({ tokens: tokens.tokens.filter((t) => t.id !== 'solo') }));
    await page.locator('form.filters button[type="submit"]').click();
    await page.locator('.sign-in-form .error', { hasText: 'The server refused your token' }).waitFor();
    expect(await page.evaluate('sessionStorage.getItem("thoughtline.token")')).toBeNull();
    await page.close();
  });

  it("starts a run from the list page's form and opens it; filters the list by status, ending, model and iterations; keeps it live", async () => {
    model.script('form-start', [
      { content: [say('Reading the request.'), useTool('finish', { result: 'Started from the browser.' })] },
    ]);
    const page = await openAs('dev');
    await page.locator('form.start textarea[name="task"]').fill('Summarise the open invoices [form-start]');
    await page.locator('form.start summary').click();
    await page.locator('form.start textarea[name="extra"]').fill(JSON.stringify({ model: SCRIPTED_MODEL }));
    await page.locator('form.start button[type="submit"]').click();
    await page.locator('.run-title', { hasText: 'Summarise the open invoices' }).waitFor();
    expect(page.url()).toMatch(/#\/runs\/[^/]+$/);
    await page.locator('.run-meta .status[data-state="completed"]').waitFor({ timeout: 20_000 });
    await page.locator('.conclusion', { hasText: 'Started from the browser.' }).waitFor();

    // A body the API refuses is shown with the field it names.
    await page.goto(`${s.server.url}/#/`);
    await page.locator('form.start textarea[name="task"]').fill('x');
    await page.locator('form.start summary').click();
    await page.locator('form.start textarea[name="extra"]').fill('{ "maxIterations": -1 }');
    await page.locator('form.start button[type="submit"]').click();
    await page.locator('form.start .message.error', { hasText: 'maxIterations' }).waitFor();

    await page.reload();
    await page.locator('form.filters select[name="status"]').selectOption('completed');
    await page.locator('form.filters button[type="submit"]').click();
    await expect.poll(async () => (await page.locator('table.runs tbody tr').count()) > 0).toBe(true);
    await expect
      .poll(async () => [
        ...new Set(
          await page
            .locator('table.runs tbody .status')
            // Typed by hand: with src/react in the program, @types/react's empty DOM interfaces hide the element's members.
            .evaluateAll((els) =>
              els.map((e) => (e as unknown as { dataset: Record<string, string> }).dataset['state']),
            ),
        ),
      ])
      .toEqual(['completed']);
    // A completed run's badge names how it ended, never a failure: those are `failed`.
    const labels = await page.locator('table.runs tbody .status').allTextContents();
    expect(labels).toContain('success');
    expect(labels.filter((label) => ['failure', 'error', 'cancelled'].includes(label))).toEqual([]);
    // How each run went, at a glance: time taken, iterations, spend and the model that answered.
    expect(await page.locator('table.runs thead th').allTextContents()).toEqual([
      'Status',
      'Agent',
      'Task',
      'Took',
      'Iterations',
      'Tokens',
      'Cost',
      'Model',
      'Started ▼',
    ]);
    const row = page.locator('table.runs tbody tr', { hasText: 'Summarise the open invoices' }).first();
    expect(await row.locator('td.col-model').textContent()).toBe(SCRIPTED_MODEL.model);
    expect(await row.locator('td.col-iterations').textContent()).toBe('1');
    expect(await row.locator('td.col-took').textContent()).toMatch(/^[\d.]+ m?s$/);
    // Sorted by any column, most first; again, the other way.
    const iterations = async () =>
      (await page.locator('table.runs tbody td.col-iterations').allTextContents()).map((t) =>
        Number(t.replace(/,/g, '')),
      );
    await page.locator('table.runs th button[data-sort="iterations"]').click();
    expect(await page.locator('table.runs th[aria-sort="descending"]').textContent()).toBe('Iterations ▼');
    const most = await iterations();
    expect(most).toEqual([...most].sort((a, b) => b - a));
    await page.locator('table.runs th button[data-sort="iterations"]').click();
    expect(await page.locator('table.runs th[aria-sort="ascending"]').textContent()).toBe('Iterations ▲');
    // Each read checked on its own: the list is live, and other files' runs end on the same server
    // between two reads (one that ended in between made the reversed first read fail once in CI).
    const fewest = await iterations();
    expect(fewest).toEqual([...fewest].sort((a, b) => a - b));
    expect(fewest[0]).toBeLessThan(fewest.at(-1)!);
    // This server keeps no chain store: the list says its sort covers the loaded runs only.
    await page.locator('.sort-note', { hasText: 'Sorted among the loaded runs only' }).waitFor();
    await screenshot(page, 'viewer-list.png');
    // Filtered on the server by how a run ended and the model that answered, and by what it used.
    await page.locator('form.filters select[name="status"]').selectOption('');
    await page.locator('form.filters select[name="reason"]').selectOption('success');
    await page.locator('form.filters input[name="model"]').fill(SCRIPTED_MODEL.model);
    await page.locator('form.filters input[name="minIterations"]').fill('1');
    await page.locator('form.filters button[type="submit"]').click();
    await expect
      .poll(async () => new Set(await page.locator('table.runs tbody td.col-model').allTextContents()))
      .toEqual(new Set([SCRIPTED_MODEL.model]));
    expect(new Set(await page.locator('table.runs tbody .status').allTextContents())).toEqual(new Set(['success']));
    await page.locator('form.filters input[name="model"]').fill('claude-opus-4-1');
    await page.locator('form.filters button[type="submit"]').click();
    await page.locator('.message', { hasText: 'No runs match.' }).waitFor();
    // Live: a run started elsewhere joins the open list without a reload.
    await page.locator('form.filters input[name="model"]').fill('');
    await page.locator('form.filters select[name="reason"]').selectOption('');
    await page.locator('form.filters input[name="minIterations"]').fill('');
    await page.locator('form.filters button[type="submit"]').click();
    await page.locator('table.runs tbody tr').first().waitFor();
    const later = await start('dev', 'list-live', 'Count the archived ledgers', [
      { content: [useTool('finish', { result: 'None archived.' })] },
    ]);
    await page.locator(`table.runs tbody tr[data-run-id="${later}"]`).waitFor({ timeout: 20_000 });
    // Its own script answered it (the key `live` of another test's run is in its key too).
    const ending = await eventually('the later run to end', async () => {
      const { json } = await s.call('dev', 'GET', `/v1/runs/${later}`);
      return json.ending;
    });
    expect([ending.state, ending.terminationReason]).toEqual(['completed', 'success']);
    // Merged in, never doubled: each run is one row.
    const listed = await page
      .locator('table.runs tbody tr')
      .evaluateAll((els) => els.map((el) => (el as unknown as { dataset: { runId: string } }).dataset.runId));
    expect(new Set(listed).size).toBe(listed.length);
    await page.close();
    // The end user's view carries no spend: no spend columns, and no filter by cost.
    const user = await openAs('user');
    await user.locator('table.runs tbody tr').first().waitFor({ timeout: 20_000 });
    expect(await user.locator('table.runs thead th').allTextContents()).not.toContain('Cost');
    expect(await user.locator('form.filters input[name="minCostUsd"]').count()).toBe(0);
    await user.close();
  });

  it('opens the run list while the server cannot answer, says why, and shows the runs once it can', async () => {
    const runId = await start('dev', 'list-heal', 'Count the open invoices', [
      { content: [useTool('finish', { result: 'Twelve.' })] },
    ]);
    const page = await openAs('dev', '/', (tab) => unavailableFirst(tab, (path) => path === '/v1/runs'));
    await page.locator('.message.error', { hasText: 'No worker answered in time' }).waitFor();
    // The list reads its first page again every 5 s.
    await page.locator(`table.runs tbody tr[data-run-id="${runId}"]`).waitFor({ timeout: 20_000 });
    expect(await page.locator('.message.error').count()).toBe(0);
    await page.close();
  });

  it('shows how each run ended: the list badge in its tone (a failure never green), the run page the reason and the answer', async () => {
    const failed = await start('dev', 'end-fail', 'Read the locked ledger', [
      { content: [say('I lack access.'), useTool('give_up', { reason: 'The ledger is locked; I have no key.' })] },
    ]);
    const succeeded = await start('dev', 'end-ok', 'Count the payroll rows', [
      { content: [say('Counting.'), useTool('count_rows', { table: 'payroll' })] },
      { content: [useTool('finish', { result: 'The payroll table has 700 rows.' })] },
    ]);
    for (const id of [failed, succeeded])
      await eventually('the run to end', async () => (await s.call('dev', 'GET', `/v1/runs/${id}`)).json.ending);

    const page = await openAs('dev');
    const badge = (id: string) => page.locator(`table.runs tr[data-run-id="${id}"] .status`);
    await badge(failed).waitFor({ timeout: 20_000 });
    await expect.poll(async () => badge(failed).textContent(), { timeout: 20_000 }).toBe('failure');
    expect(await badge(failed).getAttribute('data-state')).toBe('failed');
    expect(await badge(failed).getAttribute('class')).toContain('tone-bad');
    expect(await badge(succeeded).textContent()).toBe('success');
    // The colours the person sees: the failure's is not the success's green.
    const colour = (id: string) => badge(id).evaluate((el) => (globalThis as any).getComputedStyle(el).color as string);
    expect(await colour(failed)).not.toBe(await colour(succeeded));
    await screenshot(page, 'viewer-list-endings.png');

    await page.goto(`${s.server.url}/#/runs/${failed}`);
    const ending = page.locator('section.ending');
    await ending.locator('.ending-title', { hasText: 'Ended: failed · failure' }).waitFor({ timeout: 20_000 });
    expect(await ending.locator('.ending-summary').textContent()).toBe('failure: The ledger is locked; I have no key.');

    await page.goto(`${s.server.url}/#/runs/${succeeded}`);
    await ending.locator('.ending-title', { hasText: 'Ended: completed · success' }).waitFor({ timeout: 20_000 });
    expect(await ending.locator('.ending-answer h4').textContent()).toBe('Final answer');
    expect(await ending.locator('.ending-answer .answer-text').textContent()).toBe('The payroll table has 700 rows.');
    await page.close();
  });

  it('opens a fork beside the run it started from, aligned by iteration with what differs marked; any two runs from the run page', async () => {
    // The original counts a table then answers; its fork from the count's result answers otherwise.
    const original = await start('dev', 'cmp-fork', 'Count the vendor rows', [
      { content: [say('Counting.'), useTool('count_rows', { table: 'vendors' })] },
      { content: [useTool('finish', { result: 'There are 700 vendor rows.' })] },
      { content: [useTool('finish', { result: 'About 700 vendors.' })] },
    ]);
    await eventually(
      'the original to end',
      async () => (await s.call('dev', 'GET', `/v1/runs/${original}`)).json.ending,
    );
    const result = await s.agents.getHandle(original).result();
    const counted = result.chain.steps.find(
      (step: ReasoningStep) => step.type === 'tool_result' && step.model === undefined,
    )!;
    const { handle: fork } = await s.agents.fork(original, {
      atStep: counted.stepNumber,
      caller: { id: 'dev', roles: ['developer'], tenant: 'acme' },
    });
    await fork.result();

    const page = await openAs('dev', `/runs/${fork.workflowId}`);
    // The comparison's first read is answered 503: the page says so, then shows it.
    const compareRefused = await unavailableFirst(page, (path) => path.includes('/compare/'));
    await page.locator('a.compare-origin').click();
    await page.locator('table.compare').waitFor({ timeout: 20_000 });
    expect(compareRefused.count).toBe(1);
    expect(page.url()).toContain(`#/compare/${original}/${fork.workflowId}`);
    expect(await page.locator('.panel .message').textContent()).toBe(
      'Same through iteration 1; they differ from iteration 2.',
    );
    const row = (iteration: number) => page.locator(`table.compare tr[data-iteration="${iteration}"]`);
    expect(await page.locator('table.compare thead th').nth(2).textContent()).toContain(
      `forked from ${original} after step ${counted.stepNumber}`,
    );
    expect(await row(1).getAttribute('class')).toBe('same');
    expect(await row(1).locator('td').first().textContent()).toContain('count_rows {"table":"vendors"}');
    expect(await row(2).locator('.difference').textContent()).toBe('≠ arguments, results');
    expect(await row(2).locator('td').nth(1).textContent()).toContain('About 700 vendors.');
    const answers = page.locator('table.compare tr.answer-row td');
    expect(await answers.allTextContents()).toEqual(['There are 700 vendor rows.', 'About 700 vendors.']);
    await screenshot(page, 'viewer-compare.png');

    // Any two runs: from the run page's form.
    await page.goto(`${s.server.url}/#/runs/${original}`);
    await page.locator('form.compare-with input[name="other"]').fill(fork.workflowId);
    await page.locator('form.compare-with button[type="submit"]').click();
    await page.locator('table.compare').waitFor({ timeout: 20_000 });
    expect(page.url()).toContain(`#/compare/${original}/${fork.workflowId}`);
    // The original is no fork: it has no link to an original of its own.
    await page.goto(`${s.server.url}/#/runs/${original}`);
    await page.locator('.run-title').waitFor();
    expect(await page.locator('a.compare-origin').isHidden()).toBe(true);
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

  it('asks before a link replaces the signed-in identity, on load and in an open tab, and keeps it unless the person switches (issue 43)', async () => {
    const page = await openAs('dev');
    const identity = page.locator('#who .identity');
    await identity.waitFor();
    expect(await identity.textContent()).toMatch(/^dev · acme/);
    // A link with another person's token, loaded in this tab: the page asks, and names both.
    await page.goto(`${s.server.url}/?again#token=${encodeURIComponent(s.tokens.rival)}&/`);
    const dialog = page.locator('.switch-identity');
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(
      /signed in as dev · acme \(developer\).*signs in as rival · globex \(developer, ops, auditor\)/,
    );
    expect(page.url()).not.toContain(s.tokens.rival);
    await dialog.getByRole('button', { name: 'Stay signed in as dev' }).click();
    await identity.waitFor();
    expect(await identity.textContent()).toMatch(/^dev · acme/);
    expect(await page.evaluate("sessionStorage.getItem('thoughtline.token')")).toBe(s.tokens.dev);
    // The same link opened in the open tab (a hash change, no reload): asked again; this time the person switches.
    const openLink = (token: string) => page.evaluate(`location.hash = '#token=${encodeURIComponent(token)}&/'`);
    await openLink(s.tokens.rival);
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Switch to rival' }).click();
    // A locator wait, not waitForFunction(string): the viewer's CSP forbids the eval that polling would need.
    await page.locator('#who .identity', { hasText: /^rival/ }).waitFor();
    expect(page.url()).not.toContain(s.tokens.rival);
    // A link with a refused token says so and changes nothing.
    await openLink('tl_not_a_real_token');
    await dialog.waitFor();
    expect(await dialog.locator('.error').textContent()).toMatch(/refused/);
    await dialog.getByRole('button', { name: 'Stay signed in as rival' }).click();
    await page.locator('#who .identity', { hasText: /^rival/ }).waitFor();
    // The same token as the tab's own is no question at all.
    await openLink(s.tokens.rival);
    await page.locator('table.runs').waitFor();
    expect(await dialog.count()).toBe(0);
    await page.close();
  });
});
