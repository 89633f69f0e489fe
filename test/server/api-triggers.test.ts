import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useTool } from '../../src/activities/models/scripted-model';
import { defineAgent } from '../../src/agents/define-agent';
import { triggerTable } from '../../src/server/triggers/trigger-config';
import { MAX_TRIGGER_BODY_BYTES, TRIGGER_PAYLOAD_FILE } from '../../src/server/triggers/trigger-route';
import { signDelivery } from '../../src/server/triggers/verify-delivery';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { eventually, routedModel, startServerHarness, type ServerHarness } from './server-harness';

const env = useTestEnv();
const model = routedModel();
const triage = defineAgent({
  id: 'triage',
  description: 'Triages deploy failures.',
  version: '1.0.0',
  systemPrompt: 'Triage.',
});
const SECRET = 'whsec_test_0123456789abcdef';
let s: ServerHarness;

beforeAll(async () => {
  const triggers = triggerTable(
    {
      triggers: {
        deploys: {
          agent: 'triage',
          task: 'trigger-deploys: triage the failed deploy in the payload',
          model: SCRIPTED_MODEL,
          secretEnv: 'DEPLOY_HOOK_SECRET',
          tenant: 'acme',
        },
      },
    },
    { DEPLOY_HOOK_SECRET: SECRET },
  );
  s = await startServerHarness(env, { tools: testTools().tools, model, agents: [triage], server: { triggers } });
});
afterAll(async () => s?.close());

/** Posts `body` to a trigger, signed with `secret` at `at` (Unix seconds) unless headers are given. */
async function deliver(
  body: string,
  options: { secret?: string; at?: number; deliveryId?: string; name?: string; headers?: Record<string, string> } = {},
) {
  const timestamp = String(options.at ?? Math.floor(Date.now() / 1000));
  const deliveryId = options.deliveryId ?? randomUUID();
  const headers = options.headers ?? {
    'content-type': 'application/json',
    'x-thoughtline-signature': signDelivery(options.secret ?? SECRET, timestamp, deliveryId, body),
    'x-thoughtline-timestamp': timestamp,
    'x-thoughtline-delivery': deliveryId,
  };
  const response = await fetch(`${s.server.url}/v1/triggers/${options.name ?? 'deploys'}`, {
    method: 'POST',
    headers,
    body,
  });
  return { status: response.status, json: (await response.json()) as any };
}

describe('POST /v1/triggers/{name}', () => {
  it('starts the agent once per delivery, with the payload (secrets redacted) as its context and its origin; a redelivery answers the same run', async () => {
    const scripted = model.script('trigger-deploys', [{ content: [useTool('finish', { result: 'rolled back' })] }]);
    const deliveryId = `d-${randomUUID()}`;
    const payload = JSON.stringify({
      service: 'billing',
      error: 'exit 1',
      token: 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB',
    });
    const first = await deliver(payload, { deliveryId });
    expect(first.status, JSON.stringify(first.json)).toBe(201);
    expect(first.json).toMatchObject({ runId: `trigger.deploys.${deliveryId}`, duplicate: false });
    const runId = first.json.runId as string;
    const run = await eventually(`${runId} to complete`, async () => {
      const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
      return json.status === 'completed' ? json : undefined;
    });
    expect(run.origin).toEqual({ kind: 'trigger', trigger: 'deploys', deliveryId });
    expect(run.agentName).toBe('triage');

    const input = (await s.h.agents.getHandle(runId).describe()).searchAttributes;
    expect(input.ThoughtlineTenant).toEqual(['acme']);
    expect(input.ThoughtlineCaller).toEqual(['trigger:deploys']);
    const { json: chain } = await s.call('auditor', 'GET', `/v1/runs/${runId}/chain`);
    expect(JSON.stringify(chain.chain.steps[0])).toContain(`${TRIGGER_PAYLOAD_FILE}: `);
    // The payload reached the model as the run's context, its secret redacted before the start.
    const prompt = JSON.stringify(scripted.calls[0]!.messages);
    expect(prompt).toContain('billing');
    expect(prompt).not.toContain('ghp_0123456789abcdefghijklmnopqrstuvwxyzAB');
    const history = JSON.stringify(await s.h.agents.getHandle(runId).fetchHistory());
    expect(history).not.toContain('ghp_0123456789abcdefghijklmnopqrstuvwxyzAB');

    // The same delivery again, signed afresh: the same run, nothing new started.
    const again = await deliver(payload, { deliveryId });
    expect(again).toMatchObject({ status: 200, json: { runId, duplicate: true } });
    expect(scripted.calls).toHaveLength(1);
  });

  it('refuses a bad signature, a stale or future timestamp, missing headers and an unknown trigger, starting nothing', async () => {
    // The one delivery inside the window starts a run: its own script, not the first test's spent one.
    model.script('trigger-deploys', [{ content: [useTool('finish', { result: 'rolled back' })] }]);
    const body = '{"service":"billing"}';
    const now = Math.floor(Date.now() / 1000);
    const wrongSecret = await deliver(body, { secret: 'not-the-secret-0123456789' });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.json.error.message).toContain('does not match');

    const timestamp = String(now);
    const tampered = await deliver(body, {
      headers: {
        'x-thoughtline-signature': signDelivery(SECRET, timestamp, 'd-tampered', '{"service":"other"}'),
        'x-thoughtline-timestamp': timestamp,
        'x-thoughtline-delivery': 'd-tampered',
      },
    });
    expect(tampered.status).toBe(401);

    // A captured delivery sent again under a fresh id: the id is signed, so it is refused.
    const replayed = await deliver(body, {
      headers: {
        'x-thoughtline-signature': signDelivery(SECRET, timestamp, 'd-captured', body),
        'x-thoughtline-timestamp': timestamp,
        'x-thoughtline-delivery': 'd-fresh',
      },
    });
    expect(replayed.status).toBe(401);

    // Each timestamp from the clock just before its request: the earlier requests take time too.
    const clock = () => Math.floor(Date.now() / 1000);
    const stale = await deliver(body, { at: clock() - 301 });
    expect(stale.status).toBe(401);
    expect(stale.json.error.message).toContain('more than 5 minutes');
    expect((await deliver(body, { at: clock() + 305 })).status).toBe(401);
    // Inside the window at its edge (a few seconds of slack for the test's own time).
    expect((await deliver(body, { at: clock() - 290 })).status).toBe(201);

    const unsigned = await deliver(body, { headers: { 'content-type': 'application/json' } });
    expect(unsigned.status).toBe(401);
    expect(unsigned.json.error.message).toContain('x-thoughtline-signature');

    const badId = await deliver(body, { deliveryId: '../../etc' });
    expect(badId.status).toBe(401);
  });

  it('answers an unknown trigger name exactly as a bad signature, so the names configured cannot be learned without a secret', async () => {
    const body = '{"service":"billing"}';
    const deliveryId = `d-${randomUUID()}`;
    const at = Math.floor(Date.now() / 1000);
    const badSignature = await deliver(body, { secret: 'not-the-secret-0123456789', deliveryId, at });
    // Signed with a real trigger's secret, under a name this server does not know.
    const unknownName = await deliver(body, { name: 'nope', deliveryId, at });
    const unknownBadSignature = await deliver(body, {
      name: 'nope',
      secret: 'not-the-secret-0123456789',
      deliveryId,
      at,
    });
    expect(badSignature.status).toBe(401);
    expect(unknownName).toEqual(badSignature);
    expect(unknownBadSignature).toEqual(badSignature);
    // The checks before the signature's say the same for any name too.
    const unsignedKnown = await deliver(body, { headers: { 'content-type': 'application/json' } });
    const unsignedUnknown = await deliver(body, { name: 'nope', headers: { 'content-type': 'application/json' } });
    expect(unsignedUnknown).toEqual(unsignedKnown);

    // Comparable time: both compute the same HMAC before answering (measured interleaved, reported, not a bound).
    const times: Record<string, number[]> = { deploys: [], nope: [] };
    for (let i = 0; i < 40; i++)
      for (const name of i % 2 ? ['deploys', 'nope'] : ['nope', 'deploys']) {
        const started = performance.now();
        await deliver(body, { name, secret: 'not-the-secret-0123456789' });
        times[name]!.push(performance.now() - started);
      }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1]!.toFixed(2);
    console.log(`trigger 401 median of 40: known name ${median(times.deploys!)} ms, unknown ${median(times.nope!)} ms`);
  });

  it(`takes a body of exactly ${MAX_TRIGGER_BODY_BYTES} bytes and refuses one byte more with 413`, async () => {
    model.script('trigger-deploys', [{ content: [useTool('finish', { result: 'ok' })] }]);
    const atLimit = 'a'.repeat(MAX_TRIGGER_BODY_BYTES);
    const taken = await deliver(atLimit);
    expect(taken.status, JSON.stringify(taken.json)).toBe(201);
    const over = await deliver(`${atLimit}a`);
    expect(over.status).toBe(413);
  });
});
