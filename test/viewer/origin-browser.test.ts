import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentClient } from '../../src/client/agent-client';
import { triggerSchedule } from '../../src/client/schedules/agent-schedules';
import { triggerTable } from '../../src/server/triggers/trigger-config';
import { signDelivery } from '../../src/server/triggers/verify-delivery';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { eventually, routedModel } from '../server/server-harness';
import { launchChromium } from './headless-chromium';
import { startViewerHarness, type ViewerHarness } from './viewer-harness';

const env = useTestEnv();
const model = routedModel();
const watcher = defineAgent({ id: 'watcher', description: 'Watches.', version: '1.0.0', systemPrompt: 'Watch.' });
const experiment = `tone-${randomUUID().slice(0, 8)}`;
const greeter = defineAgent({
  id: 'greeter',
  description: 'Greets.',
  version: '1.0.0',
  systemPrompt: 'Greet.',
  experiment: {
    name: experiment,
    assignBy: 'caller',
    variants: [
      { name: 'plain', weight: 1 },
      { name: 'warm', weight: 1, systemPrompt: 'Greet warmly.' },
    ],
  },
});
const SECRET = 'whsec_viewer_0123456789abcdef';
const schedule = `viewer-${randomUUID().slice(0, 8)}`;
let s: ViewerHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  const triggers = triggerTable(
    {
      triggers: {
        alerts: {
          agent: 'watcher',
          task: 'origin-alert: look at the alert',
          model: SCRIPTED_MODEL,
          secretEnv: 'ALERT_SECRET',
          tenant: 'acme',
        },
      },
    },
    { ALERT_SECRET: SECRET },
  );
  s = await startViewerHarness(env, { tools: [], model, agents: [watcher, greeter], triggers });
  browser = await launchChromium();
});
afterAll(async () => {
  await s?.call('dev', 'DELETE', `/v1/schedules/${schedule}`);
  await browser?.close();
  await s?.close();
});

const completed = (runId: string) =>
  eventually(`${runId} to complete`, async () => {
    const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
    return json.status === 'completed' ? json : undefined;
  });

/** The run page's meta line, as an end user of the tenant sees it. */
async function metaLine(runId: string): Promise<string> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(`${s.server.url}/#token=${encodeURIComponent(s.tokens.user)}&/runs/${encodeURIComponent(runId)}`);
  const meta = page.locator('p.run-meta');
  // The status record and the chain's head arrive apart: wait for both (the run id and its start).
  await eventually('the meta line with its origin', async () => {
    const text = (await meta.textContent()) ?? '';
    return text.includes(runId) && text.includes(' · started ') ? true : undefined;
  });
  const text = (await meta.textContent()) ?? '';
  expect(errors).toEqual([]);
  await page.close();
  return text;
}

describe("the run page's origin", () => {
  it('says which schedule started a scheduled run, and which webhook delivery a triggered one', async () => {
    model.script('origin-scheduled', [{ content: [useTool('finish', { result: 'all quiet' })] }]);
    model.script('origin-alert', [{ content: [useTool('finish', { result: 'false alarm' })] }]);
    const created = await s.call('dev', 'POST', '/v1/schedules', {
      name: schedule,
      agent: 'watcher',
      input: 'origin-scheduled: check the queue',
      model: SCRIPTED_MODEL,
      every: '1h',
      paused: true,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    await triggerSchedule(new AgentClient({ client: env.client }), schedule, { tenant: 'acme' });
    const scheduledRun = await eventually('the scheduled run', async () => {
      const { json } = await s.call('dev', 'GET', `/v1/schedules/${schedule}`);
      return json.recentRuns?.[0]?.runId as string | undefined;
    });
    await completed(scheduledRun);

    const body = '{"alert":"disk 91%"}';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const delivery = `d-${randomUUID()}`;
    const response = await fetch(`${s.server.url}/v1/triggers/alerts`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-thoughtline-timestamp': timestamp,
        'x-thoughtline-delivery': delivery,
        'x-thoughtline-signature': signDelivery(SECRET, timestamp, delivery, body),
      },
      body,
    });
    expect(response.status).toBe(201);
    const triggeredRun = ((await response.json()) as { runId: string }).runId;
    await completed(triggeredRun);

    expect(await metaLine(scheduledRun)).toContain(`watcher · started `);
    expect(await metaLine(scheduledRun)).toContain(`scheduled by ${schedule} · ${scheduledRun}`);
    expect(await metaLine(triggeredRun)).toContain(
      `triggered by webhook alerts, delivery ${delivery} · ${triggeredRun}`,
    );
  }, 120_000);
});

describe("a live experiment's variant in the viewer", () => {
  it('is on the run page and in the run list', async () => {
    model.script('origin-greet', [{ content: [useTool('finish', { result: 'hello' })] }]);
    const started = await s.call('user', 'POST', '/v1/runs', {
      task: 'origin-greet: say hello',
      agent: 'greeter',
      model: SCRIPTED_MODEL,
    });
    expect(started.status, JSON.stringify(started.json)).toBe(201);
    const runId = started.json.runId as string;
    const run = await completed(runId);
    const variant = run.experiment?.variant as string;
    expect(['plain', 'warm']).toContain(variant);
    expect(await metaLine(runId)).toContain(`greeter · experiment ${experiment}: ${variant} · started `);

    const page = await browser.context.newPage();
    await page.goto(`${s.server.url}/#token=${encodeURIComponent(s.tokens.user)}&/`);
    const agentCell = page.locator(`table.runs tr[data-run-id="${runId}"] td:nth-child(2)`);
    await agentCell.waitFor();
    expect(await agentCell.textContent()).toBe(`greeter · experiment ${experiment}: ${variant}`);
    await page.close();
  }, 120_000);
});
