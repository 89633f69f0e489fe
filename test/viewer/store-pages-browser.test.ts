import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import type { ChainStore } from '../../src/store/chain-store';
import { openChainStore } from '../../src/store/open-chain-store';
import { defineTool } from '../../src/tools/define-tool';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { eventually, routedModel, type Person } from '../server/server-harness';
import { storeRun } from '../store-reads/store-fixture';
import { launchChromium } from './headless-chromium';
import { startViewerHarness, type ViewerHarness } from './viewer-harness';

const env = useTestEnv();
const model = routedModel();
const IMAGES = path.resolve(__dirname, '../../docs/images');
/** The docs' screenshots are rewritten only on request (scripts/viewer-screenshots.sh). */
const SAVE_SCREENSHOTS = process.env.THOUGHTLINE_SCREENSHOTS === '1';
const AGENT = 'ledger-keeper';
const OTHER_AGENT = 'archive-clerk';
/** A word only the parallel run's results carry, for search. */
const NEEDLE = 'quetzalrow';

const lookup = defineTool({
  name: 'lookup_ledger',
  description: 'Reads one ledger entry',
  input: z.object({ key: z.string() }),
  effects: 'none',
  execute: async ({ key }) => {
    // Long enough that the two parallel calls visibly overlap on the timeline.
    await new Promise((resolve) => setTimeout(resolve, key === 'alpha' ? 300 : 700));
    return { key, entry: `${NEEDLE}-${key}` };
  },
});
const post = defineTool({
  name: 'post_entry',
  description: 'Posts a ledger entry',
  input: z.object({ amountUsd: z.number() }),
  approval: 'always',
  approverRoles: ['ops'],
  execute: ({ amountUsd }) => ({ posted: amountUsd }),
});
const count = defineTool({
  name: 'count_rows',
  description: 'Counts the rows of a ledger table',
  input: z.object({ table: z.string() }),
  effects: 'none',
  execute: ({ table }) => ({ table, rows: table.length * 100 }),
});

let s: ViewerHarness;
let store: ChainStore;
let storeClosed = false;
let browser: Awaited<ReturnType<typeof launchChromium>>;
const pageErrors: string[] = [];
const runs = { parallel: '', long: '', gone: '' };

async function start(
  key: string,
  task: string,
  turns: Parameters<typeof model.script>[1],
  extra = {},
): Promise<string> {
  model.script(key, turns);
  const started = await s.call('dev', 'POST', '/v1/runs', {
    task: `${task} [${key}]`,
    model: SCRIPTED_MODEL,
    agentName: AGENT,
    ...extra,
  });
  expect(started.status).toBe(201);
  return started.json.runId as string;
}

async function ended(runId: string): Promise<void> {
  await eventually(`${runId} to end`, async () => {
    const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
    return json.status === 'completed' ? json : undefined;
  });
}

async function openAs(who: Person, route: string): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1100, height: 800 });
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(`${s.server.url}/#token=${encodeURIComponent(s.tokens[who])}&${route}`);
  return page;
}

async function screenshot(page: Page, file: string): Promise<void> {
  const png = await page.screenshot({ fullPage: true, ...(SAVE_SCREENSHOTS ? { path: path.join(IMAGES, file) } : {}) });
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.length).toBeGreaterThan(20_000);
}

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-store-viewer-'));
  const opened = await openChainStore({ kind: 'sqlite', file: path.join(dir, 'store.sqlite') });
  if (!opened) throw new Error('a sqlite setting opens a store');
  store = opened;
  s = await startViewerHarness(env, { tools: [lookup, post, count], model, store });
  browser = await launchChromium();

  runs.parallel = await start('parallel', 'Reconcile the ledger', [
    {
      content: [
        say('Both entries at once.'),
        useTool('lookup_ledger', { key: 'alpha' }),
        useTool('lookup_ledger', { key: 'beta' }),
      ],
      usage: { inputTokens: 1200, outputTokens: 80 },
      costUsd: 0.012,
    },
    {
      content: [say('Both read; I post the entry.'), useTool('post_entry', { amountUsd: 42 })],
      usage: { inputTokens: 1500, outputTokens: 40 },
      costUsd: 0.015,
    },
    {
      content: [useTool('finish', { result: 'Reconciled.' })],
      usage: { inputTokens: 1600, outputTokens: 30 },
      costUsd: 0.016,
    },
  ]);
  const pending = await eventually('the approval request', async () => {
    const { json } = await s.call('dev', 'GET', `/v1/runs/${runs.parallel}`);
    return json.pendingApprovals?.[0] as { callId: string; argumentsHash: string } | undefined;
  });
  const decided = await s.call('ops', 'POST', `/v1/runs/${runs.parallel}/approvals/${pending.callId}`, {
    approved: true,
    argumentsHash: pending.argumentsHash,
  });
  expect(decided.status).toBeLessThan(300);

  const turns = Array.from({ length: 42 }, (_, i) => ({
    content: [say(`Counting table ${i + 1}.`), useTool('count_rows', { table: `t${i + 1}` })],
    costUsd: 0.001,
  }));
  runs.long = await start(
    'long',
    'Count every table',
    [...turns, { content: [useTool('finish', { result: 'Counted.' })] }],
    {
      maxIterations: 50,
    },
  );
  runs.gone = await start(
    'gone',
    'An old run',
    [{ content: [useTool('finish', { result: 'Done long ago.' })], costUsd: 0.02 }],
    { agentName: OTHER_AGENT },
  );
  // What the projection would write once each run ended: its chain as Temporal holds it.
  const reader = new AgentClient({ client: env.client, taskQueue: 'store-viewer-reads' });
  for (const runId of Object.values(runs)) {
    await ended(runId);
    await storeRun(store, reader, runId);
  }
  await store.markTemporalGone(runs.gone);
}, 240_000);
afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
  if (!storeClosed) await store?.close();
});

describe('the chain store pages in Chromium', () => {
  it("draws a run's timeline: model calls, the parallel calls in two lanes, the approval wait; a bar opens its step", async () => {
    const { json: timeline } = await s.call('dev', 'GET', `/v1/runs/${runs.parallel}/timeline`);
    expect(timeline.source).toBe('store');
    const page = await openAs('dev', `/runs/${runs.parallel}/timeline`);
    await page.locator('svg.waterfall g.bar').first().waitFor();
    const bars = page.locator('svg.waterfall g.bar');
    expect(await bars.count()).toBe(timeline.bars.length);
    expect(await page.locator('g.bar.kind-model').count()).toBe(3);
    expect(await page.locator('g.bar.kind-approval').count()).toBe(1);
    const lookups = page.locator('g.bar.kind-tool', { hasText: 'lookup_ledger' });
    expect(await lookups.count()).toBe(2);
    // Typed by hand: with src/react in the program, @types/react's empty DOM interfaces hide the element's members.
    const lanes = await lookups.evaluateAll((els) =>
      els.map((el) => (el as unknown as { getAttribute(name: string): string | null }).getAttribute('data-lane')),
    );
    expect(new Set(lanes).size).toBe(2);
    expect(await page.locator('svg.waterfall text.tick').count()).toBeGreaterThan(2);
    await screenshot(page, 'viewer-timeline.png');

    const approval = timeline.bars.find((bar: { kind: string }) => bar.kind === 'approval');
    await page.locator('g.bar.kind-approval rect').click();
    await page.locator(`.step.focused[data-step="${approval.stepNumber}"]`).waitFor();
    expect(page.url()).toContain(`?step=${approval.stepNumber}`);
    await page.close();
  }, 60_000);

  it("draws a sub-agent as one bar that opens the child's own timeline", async () => {
    model.script('child', [
      { content: [say('Reading the register.'), useTool('finish', { result: 'Registered in 2011.' })] },
    ]);
    // Not written to the store: its timeline is read from Temporal, as for any run the store lacks.
    const runId = await start(
      'parent',
      'Check the vendor',
      [
        {
          content: [say('Asking the researcher.'), useTool('researcher', { task: 'Find the vendor [child]' })],
        },
        { content: [useTool('finish', { result: 'The vendor is registered.' })] },
      ],
      { agents: { researcher: { description: 'Looks companies up', model: SCRIPTED_MODEL, tools: [] } } },
    );
    await ended(runId);
    const page = await openAs('dev', `/runs/${runId}/timeline`);
    const sub = page.locator('g.bar.kind-sub_agent');
    await sub.waitFor();
    expect(await sub.count()).toBe(1);
    expect(await sub.locator('title').textContent()).toContain('researcher');
    await sub.locator('rect').click();
    const { json: timeline } = await s.call('dev', 'GET', `/v1/runs/${runId}/timeline`);
    const child = timeline.bars.find((bar: { kind: string }) => bar.kind === 'sub_agent').runId as string;
    expect(child).not.toBe(runId);
    await page.waitForURL(`${s.server.url}/#/runs/${encodeURIComponent(child)}/timeline`);
    await page.locator('.timeline g.bar.kind-model').first().waitFor();
    await page.close();
  }, 60_000);

  it('draws usage per day and per agent with the numbers of the runs', async () => {
    const expected = new Map<string, { runs: number; tokens: number; costUsd: number }>();
    for (const runId of Object.values(runs)) {
      const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}/summary`);
      const sums = expected.get(json.agentName) ?? { runs: 0, tokens: 0, costUsd: 0 };
      sums.runs += 1;
      sums.tokens += json.inputTokens + json.outputTokens;
      sums.costUsd += json.costUsd;
      expected.set(json.agentName, sums);
    }
    expect([...expected.keys()].sort()).toEqual([OTHER_AGENT, AGENT]);
    expect(expected.get(AGENT)!.costUsd).toBeGreaterThan(0.08);
    const page = await openAs('dev', '/usage');
    const bar = (by: string, metric: string, key: string) =>
      page.locator(`[data-by="${by}"] svg.chart[data-metric="${metric}"] rect[data-key="${key}"]`);
    await bar('agent', 'runs', AGENT).waitFor();
    for (const [agent, sums] of expected) {
      expect(Number(await bar('agent', 'runs', agent).getAttribute('data-value'))).toBe(sums.runs);
      expect(Number(await bar('agent', 'tokens', agent).getAttribute('data-value'))).toBe(sums.tokens);
      expect(Number(await bar('agent', 'costUsd', agent).getAttribute('data-value'))).toBeCloseTo(sums.costUsd, 9);
    }
    const today = new Date().toISOString().slice(0, 10);
    expect(await bar('day', 'runs', today).getAttribute('data-value')).toBe('3');
    expect(await page.locator('[data-by="day"] svg.chart[data-metric="runs"] rect').count()).toBe(14);
    expect(await page.locator('.usage-totals').textContent()).toContain('3 runs');
    await screenshot(page, 'viewer-usage.png');
    await page.close();
  }, 60_000);

  it('finds a run by the text of its results, with the matching steps, and links to it', async () => {
    const page = await openAs('dev', '/search');
    expect(await page.locator('input[name="text"]').getAttribute('maxlength')).toBe('200');
    await page.locator('input[name="text"]').fill(NEEDLE);
    await page.locator('input[name="agent"]').fill(AGENT);
    await page.locator('.search-form button[type="submit"]').click();
    await page.locator('.search-hit').first().waitFor();
    const hits = page.locator('.search-hit');
    expect(await hits.count()).toBe(1);
    expect(await hits.getAttribute('data-run-id')).toBe(runs.parallel);
    expect(await hits.locator('.excerpt').first().textContent()).toContain(NEEDLE);
    await screenshot(page, 'viewer-search.png');
    await hits.locator('a.hit-task').click();
    await page.locator('.run-title', { hasText: 'Reconcile the ledger' }).waitFor();
    await page.close();
  }, 60_000);

  it('sorts the run list on the server, from the store, across every run it holds: a heading again the other way', async () => {
    const page = await openAs('dev', '/');
    await page.locator('table.runs tbody tr').first().waitFor();
    const rowIds = () =>
      page
        .locator('table.runs tbody tr')
        .evaluateAll((els) => els.map((el) => (el as unknown as { dataset: { runId: string } }).dataset.runId));
    await page.locator('table.runs th button[data-sort="iterations"]').click();
    // The store holds these three runs only: the page is the store's order, not the loaded rows re-sorted.
    await expect.poll(rowIds).toEqual([runs.long, runs.parallel, runs.gone]);
    expect(await page.locator('table.runs td.col-iterations').allTextContents()).toEqual(['43', '3', '1']);
    await page.locator('table.runs th button[data-sort="iterations"]').click();
    await expect.poll(rowIds).toEqual([runs.gone, runs.parallel, runs.long]);
    await page.locator('table.runs th button[data-sort="cost"]').click();
    await expect.poll(rowIds).toEqual([runs.parallel, runs.long, runs.gone]);
    expect(await page.locator('.sort-note').isHidden()).toBe(true);
    // A filter only Temporal's list holds: the loaded rows are sorted here, and the list says why.
    await page.locator('form.filters select[name="origin"]').selectOption('schedule');
    await page.locator('form.filters button[type="submit"]').click();
    await page.locator('.sort-note', { hasText: 'does not hold origin' }).waitFor();
    expect(await page.locator('.message.error').count()).toBe(0);
    await page.close();
  });

  it('narrows the chain with filters, and clears them', async () => {
    const page = await openAs('dev', `/runs/${runs.parallel}`);
    await page.locator('.steps .step').first().waitFor({ state: 'attached' });
    const all = await page.locator('.steps .step').count();
    await page.locator('.chain-filters input[value="tool_result"]').check();
    await page.locator('.chain-filters input[name="tool"]').fill('lookup_ledger');
    await page.locator('.chain-filters button[type="submit"]').click();
    await page.locator('.filtered-steps .step').first().waitFor();
    expect(await page.locator('.filtered-steps .step').count()).toBe(2);
    expect(await page.locator('.steps:not(.filtered-steps)').isHidden()).toBe(true);
    await page.locator('.chain-filters button', { hasText: 'Clear filters' }).click();
    expect(await page.locator('.filtered-steps').isHidden()).toBe(true);
    expect(await page.locator('.steps:not(.filtered-steps) .step').count()).toBe(all);
    await page.close();
  }, 60_000);

  it('warns on a long chain, with its summary', async () => {
    const page = await openAs('dev', `/runs/${runs.long}`);
    const warning = page.locator('.summary .long-chain');
    await warning.waitFor();
    expect(await warning.textContent()).toMatch(/^Long chain: \d{3} steps\./);
    expect(await page.locator('.summary-tools').textContent()).toContain('count_rows: 42 calls');
    const short = await openAs('dev', `/runs/${runs.parallel}`);
    await short.locator('.summary .summary-facts').waitFor();
    expect(await short.locator('.long-chain').count()).toBe(0);
    await page.close();
    await short.close();
  }, 60_000);

  it('says when a chain is read from the store only', async () => {
    const page = await openAs('dev', `/runs/${runs.gone}`);
    const notice = page.locator('.chain .store-notice.store-only');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('Read from the chain store only');
    const timeline = await openAs('dev', `/runs/${runs.gone}/timeline`);
    await timeline.locator('.timeline .store-notice.store-only').waitFor();
    expect(await timeline.locator('svg.waterfall g.bar').count()).toBeGreaterThan(0);
    await timeline.close();
    const other = await openAs('dev', `/runs/${runs.parallel}`);
    await other.locator('.steps .step').first().waitFor({ state: 'attached' });
    expect(await other.locator('.chain .store-notice').isHidden()).toBe(true);
    await page.close();
    await other.close();
  }, 60_000);

  // Last: it closes the store, as a database gone away would leave it.
  it('says when the store cannot be read, and shows the chain from Temporal', async () => {
    await store.close();
    storeClosed = true;
    const page = await openAs('dev', `/runs/${runs.parallel}`);
    const notice = page.locator('.chain .store-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/^The chain store is unavailable \(.+\); read from Temporal\.$/);
    await page.locator('.steps .step').first().waitFor({ state: 'attached' });
    await page.close();
  }, 60_000);
});
