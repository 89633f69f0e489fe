import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { eventually, routedModel } from '../server/server-harness';
import { launchChromium } from './headless-chromium';
import { startViewerHarness, type ViewerHarness } from './viewer-harness';

const env = useTestEnv();
const model = routedModel();
let s: ViewerHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  s = await startViewerHarness(env, { tools: [], model });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe("the run page's scores", () => {
  it('shows the scores attached after the run ended, a hostile comment as plain text, to an end user too', async () => {
    model.script('scored-run', [{ content: [useTool('finish', { result: 'The invoice was paid.' })] }]);
    const started = await s.call('dev', 'POST', '/v1/runs', {
      task: 'Pay the invoice [scored-run]',
      model: SCRIPTED_MODEL,
    });
    const runId = started.json.runId as string;
    await eventually('the run to complete', async () => {
      const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
      return json.status === 'completed' ? json : undefined;
    });
    const hostile = '<img src=x onerror="document.title=\'owned\'"> accepted by the customer';
    const scored = await s.call('dev', 'POST', `/v1/runs/${runId}/scores`, {
      name: 'accepted',
      value: true,
      comment: hostile,
    });
    expect(scored.status).toBe(201);
    await s.call('auditor', 'POST', `/v1/runs/${runId}/scores`, { name: 'csat', value: 4.5, source: 'survey' });

    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${s.server.url}/#token=${encodeURIComponent(s.tokens.user)}&/runs/${encodeURIComponent(runId)}`);
    const panel = page.locator('section.scores');
    await panel.locator('li.score').nth(1).waitFor({ timeout: 30_000 });
    expect(await panel.locator('h3').textContent()).toBe('Scores (2)');
    const items = await panel.locator('li.score').allTextContents();
    expect(items[0]).toMatch(/^accepted 1 · by dev · .+ · via api/);
    expect(items[0]).toContain(hostile);
    expect(items[1]).toMatch(/^csat 4\.5 · by auditor · .+ · via survey$/);
    expect(await panel.locator('img').count()).toBe(0);
    expect(await page.title()).not.toBe('owned');
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
