import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChainStore } from '../../src/store/chain-store';
import { openChainStore } from '../../src/store/open-chain-store';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { HIDE_THINKING_FROM_END_USERS, policyTools, policyTurns, THOUGHT, writePolicy } from '../server/policy-fixture';
import { eventually, routedModel, type Person } from '../server/server-harness';
import { launchChromium } from './headless-chromium';
import { startViewerHarness, type ViewerHarness } from './viewer-harness';

const env = useTestEnv();
const model = routedModel();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-viewer-policy-'));
const pageErrors: string[] = [];
let s: ViewerHarness;
let store: ChainStore;
let browser: { context: BrowserContext; close(): Promise<void> };
let runId: string;

beforeAll(async () => {
  // The store keeps people's preferences; with no projection feeding it, runs are read from Temporal.
  store = (await openChainStore({ kind: 'sqlite', file: path.join(dir, 'store.sqlite') }))!;
  const policy = await writePolicy(dir, 'policy.yaml', HIDE_THINKING_FROM_END_USERS);
  s = await startViewerHarness(env, { tools: policyTools(), model, store, policy });
  browser = await launchChromium();
  const key = `viewer-policy-${Math.random().toString(36).slice(2, 8)}`;
  model.script(key, policyTurns('Checked the sources.'));
  const started = await s.call('dev', 'POST', '/v1/runs', { task: `${key}: check the sources`, model: SCRIPTED_MODEL });
  runId = started.json.runId;
  await eventually('the run to end', async () => {
    const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
    return json.status === 'completed' ? json : undefined;
  });
}, 90_000);
afterEach(async () => {
  expect(pageErrors.splice(0)).toEqual([]);
  for (const who of ['user', 'dev'] as const) await s.call(who, 'PUT', '/v1/me/preferences', {});
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
  await store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A tab signed in as `who` (the token in the fragment, as `serve` prints it), at `route`. */
async function openAs(who: Person, route: string): Promise<Page> {
  const page = await browser.context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(`${s.server.url}/#token=${encodeURIComponent(s.tokens[who])}&${route}`);
  return page;
}

/** The run page once its chain is in: the internal call's card is there in every view tested. */
async function openRun(who: Person): Promise<Page> {
  const page = await openAs(who, `/runs/${runId}`);
  await page.locator('.step-title', { hasText: 'Tool call · tally' }).waitFor();
  await page.locator('.run-meta .status[data-state="completed"]').waitFor();
  return page;
}

const countOf = (page: Page, selector: string, text?: string) =>
  page.locator(selector, text ? { hasText: text } : {}).count();

describe('the viewer under a policy that hides thinking from end users', () => {
  it('shows an end user no thinking step, and a developer the thought', async () => {
    const user = await openRun('user');
    expect(await countOf(user, 'article.step-thinking')).toBe(0);
    expect(await user.locator('main').textContent()).not.toContain(THOUGHT);
    expect(await countOf(user, '.step-title', 'Tool call · fetch_source')).toBe(1);
    await user.close();

    const dev = await openRun('dev');
    await dev.locator('.thought', { hasText: THOUGHT }).waitFor();
    await dev.close();
  });

  it('an end user who unticks external calls stops seeing them; ticking thinking never shows it', async () => {
    const settings = await openAs('user', '/settings');
    const external = settings.getByLabel('Show external API calls');
    await external.waitFor();
    await settings.locator('form.preferences input[name="externalCalls"]:not([disabled])').waitFor();
    expect(await external.isChecked()).toBe(true);
    await external.uncheck();
    expect(await settings.getByLabel('Show detailed thinking steps').isChecked()).toBe(true);
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.locator('.message', { hasText: 'Saved.' }).waitFor();
    await settings.close();
    expect((await s.call('user', 'GET', '/v1/me/preferences')).json.preferences.externalCalls).toBe(false);

    const run = await openRun('user');
    expect(await countOf(run, '.step-title', 'fetch_source')).toBe(0);
    expect(await countOf(run, 'article.step-thinking')).toBe(0);
    // "Show details": the preference is set aside, the policy is not.
    await run.getByLabel('Show details').check();
    await run.locator('.step-title', { hasText: 'Tool call · fetch_source' }).waitFor();
    await run.locator('.step-title', { hasText: 'Tool call · tally' }).waitFor();
    expect(await countOf(run, 'article.step-thinking')).toBe(0);
    await run.getByLabel('Show details').uncheck();
    await run.locator('.step-title', { hasText: 'Tool call · tally' }).waitFor();
    expect(await countOf(run, '.step-title', 'fetch_source')).toBe(0);
    await run.close();
  });

  it('with summaries only, the run opens on its progress lines', async () => {
    await s.call('dev', 'PUT', '/v1/me/preferences', { summariesOnly: true });
    const run = await openRun('dev');
    const summary = run.locator('.progress-summary-text');
    await summary.waitFor();
    expect(await summary.textContent()).toContain('·');
    await run.close();
  });
});
