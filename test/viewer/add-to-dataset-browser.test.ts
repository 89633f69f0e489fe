import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import { defineTool } from '../../src/tools/define-tool';
import { loadDataset } from '../../src/eval/dataset';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { eventually, routedModel } from '../server/server-harness';
import { launchChromium } from './headless-chromium';
import { startViewerHarness, type ViewerHarness } from './viewer-harness';

const env = useTestEnv();
const model = routedModel();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-viewer-datasets-'));
let s: ViewerHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;

const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Looks up an order',
  input: z.object({ order: z.string() }),
  execute: ({ order }) => ({ order, status: 'shipped' }),
});

beforeAll(async () => {
  s = await startViewerHarness(env, { tools: [lookupOrder], model, datasets: dir });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('"Add to dataset" on the run page', () => {
  it('an auditor adds the ended run to a dataset on the server; a second time says why not; others see no form', async () => {
    model.script('dataset-run', [
      { content: [useTool('lookup_order', { order: 'A-1' })] },
      { content: [useTool('finish', { result: 'A-1 is shipped.' })] },
    ]);
    const started = await s.call('dev', 'POST', '/v1/runs', {
      task: 'Where is order A-1? [dataset-run]',
      model: SCRIPTED_MODEL,
      tools: ['lookup_order'],
      requireThought: false,
    });
    const runId = started.json.runId as string;
    await eventually('the run to complete', async () => {
      const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
      return json.status === 'completed' ? json : undefined;
    });

    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(
      `${s.server.url}/#token=${encodeURIComponent(s.tokens.auditor)}&/runs/${encodeURIComponent(runId)}`,
    );
    const panel = page.locator('section.add-to-dataset');
    await panel.waitFor({ state: 'visible', timeout: 30_000 });
    await panel.locator('input[name=dataset]').fill('support');
    await panel.locator('button[type=submit]').click();
    const status = panel.locator('p[role=status]');
    await expect
      .poll(() => status.textContent(), { timeout: 30_000 })
      .toBe(`Added case run-${runId} to support (3 recorded lines, expects success).`);
    const dataset = loadDataset(path.join(dir, 'tenants/acme/support.jsonl'));
    expect(dataset.cases.map((c) => [c.id, c.expect.answer])).toEqual([
      [`run-${runId}`, { match: 'exact', value: 'A-1 is shipped.', ignoreCase: false }],
    ]);

    // Again: the server's reason, as an error; the dataset is unchanged.
    await panel.locator('button[type=submit]').click();
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/already has the case/);
    expect(await status.getAttribute('class')).toContain('error');
    expect(loadDataset(path.join(dir, 'tenants/acme/support.jsonl')).cases).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.close();

    // A developer's page has the run but no form: a case carries the auditor's material.
    const dev = await browser.context.newPage();
    await dev.goto(`${s.server.url}/#token=${encodeURIComponent(s.tokens.dev)}&/runs/${encodeURIComponent(runId)}`);
    await dev.locator('section.ending').waitFor({ state: 'visible', timeout: 30_000 });
    expect(await dev.locator('section.add-to-dataset').isHidden()).toBe(true);
    await dev.close();
  }, 180_000);
});
