import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import { defineAgent } from '../../src/agents/define-agent';
import { auditReport, sealAll, type AuditReport } from '../../src/audit';
import { base64UrlEncode } from '../../src/domain/approval/signed-decision';
import { createMemoryBus } from '../../src/events/memory-bus';
import {
  createChainStoreProjection,
  type ChainStoreProjection,
} from '../../src/server/chain-store/chain-store-projection';
import { triggerTable } from '../../src/server/triggers/trigger-config';
import { signDelivery } from '../../src/server/triggers/verify-delivery';
import { openChainStore } from '../../src/store/open-chain-store';
import type { ChainStore } from '../../src/store/chain-store';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { routedModel, startServerHarness, type Person, type ServerHarness } from '../server/server-harness';

/**
 * Issue 78, defects 3 and 7, through a running server with two tenants (acme and globex) and a
 * chain store: an auditor of globex uploads forged, re-sealed exports under ids acme's runs have or
 * will have. The upload never takes the id, acme's run reads as itself, and the import's answer is
 * the same whether or not the id it names exists in the other tenant.
 */
const env = useTestEnv();
const model = routedModel();
const triage = defineAgent({ id: 'triage', description: 'Triages.', version: '1.0.0', systemPrompt: 'Triage.' });
const SECRET = 'whsec_space_0123456789abcdef';
/** globex's own signing key: the forgery is sealed with it, and the upload names it. */
const seed = new Uint8Array(32).fill(9);
const globexKey = base64UrlEncode(ed25519.getPublicKey(seed));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-import-space-'));
let store: ChainStore;
let projection: ChainStoreProjection;
let s: ServerHarness;
let acmeExport: AuditReport;

/** Signs and posts one delivery of acme's trigger. */
async function deliver(deliveryId: string, body = '{"service":"billing"}') {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const response = await fetch(`${s.server.url}/v1/triggers/deploys`, {
    method: 'POST',
    headers: {
      'x-thoughtline-signature': signDelivery(SECRET, timestamp, deliveryId, body),
      'x-thoughtline-timestamp': timestamp,
      'x-thoughtline-delivery': deliveryId,
    },
    body,
  });
  return { status: response.status, json: (await response.json()) as any };
}

/** A run of acme's trigger, finished, and caught up into the store as `serve`'s projection would. */
async function acmeRun(deliveryId: string, key: string): Promise<string> {
  model.script(`space-${key}`, [{ content: [useTool('finish', { result: key })] }]);
  const started = await deliver(deliveryId, JSON.stringify({ key: `space-${key}` }));
  expect(started.status, JSON.stringify(started.json)).toBe(201);
  const runId = started.json.runId as string;
  await s.h.agents.getHandle(runId).result();
  projection.catchUp(runId);
  await projection.idle();
  return runId;
}

/** acme's export rewritten by globex to name `workflowId` in globex's tenant, sealed again with globex's key. */
const forgery = (workflowId: string, marker: string): string => {
  const { integrity: _old, ...report } = acmeExport;
  const forged = {
    ...report,
    run: { ...report.run, workflowId, tenant: 'globex', task: marker },
  } as AuditReport;
  return JSON.stringify(sealAll(forged, { keyId: 'globex-key', seed }));
};

const post = (who: Person, body: string) => s.call(who, 'POST', `/v1/imports?publicKey=${globexKey}`, body);

beforeAll(async () => {
  store = (await openChainStore({ kind: 'sqlite', file: path.join(dir, 'store.sqlite') }))!;
  const triggers = triggerTable(
    {
      triggers: {
        deploys: {
          agent: 'triage',
          task: 'triage the delivery in the payload',
          model: SCRIPTED_MODEL,
          secretEnv: 'SPACE_SECRET',
          tenant: 'acme',
        },
      },
    },
    { SPACE_SECRET: SECRET },
  );
  s = await startServerHarness(env, {
    tools: testTools().tools,
    model,
    agents: [triage],
    server: { triggers, store },
  });
  projection = createChainStoreProjection({ store, agents: s.h.agents, bus: createMemoryBus(), log: () => {} });
  const first = await acmeRun(`d-${randomUUID()}`, `seed${randomUUID().slice(0, 8)}`);
  acmeExport = await auditReport(s.h.agents, first, 'auditor', { id: 'auditor', roles: ['auditor'] });
}, 60_000);
afterAll(async () => {
  await projection?.close();
  await s?.close();
  await store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("an import never shares an id with another tenant's run", () => {
  it("globex's upload under the id acme's next trigger run gets is kept apart; acme's run reads as itself in chain, summary and search", async () => {
    const deliveryId = `d-${randomUUID()}`;
    const futureId = `trigger.deploys.${deliveryId}`;
    const forged = await post('rival', forgery(futureId, 'forged by globex'));
    expect(forged.status, JSON.stringify(forged.json)).toBe(201);
    const [kept] = forged.json.runs as Array<{ runId: string; originalRunId: string }>;
    expect(kept!.originalRunId).toBe(futureId);
    expect(kept!.runId).not.toBe(futureId);
    expect(kept!.runId.startsWith('import:')).toBe(true);

    const key = `live${randomUUID().slice(0, 8)}`;
    expect(await acmeRun(deliveryId, key)).toBe(futureId);
    const chain = await s.call('dev', 'GET', `/v1/runs/${futureId}/chain`);
    expect(chain.status, JSON.stringify(chain.json)).toBe(200);
    expect(JSON.stringify(chain.json)).toContain(key);
    expect(JSON.stringify(chain.json)).not.toContain('forged by globex');
    expect(chain.json.imported).toBeUndefined();
    const summary = await s.call('dev', 'GET', `/v1/runs/${futureId}/summary`);
    expect(summary.status, JSON.stringify(summary.json)).toBe(200);
    const found = await s.call('dev', 'GET', `/v1/search?text=${key}`);
    expect(found.status).toBe(200);
    expect(found.json.hits.map((hit: { run: { runId: string } }) => hit.run.runId)).toEqual([futureId]);

    // globex reads its import under the import's id, and never acme's run under acme's.
    const own = await s.call('rival', 'GET', `/v1/runs/${encodeURIComponent(kept!.runId)}/chain`);
    expect(own.status).toBe(200);
    expect(own.json).toMatchObject({ source: 'store', storeOnly: true, imported: { originalRunId: futureId } });
    expect((await s.call('rival', 'GET', `/v1/runs/${futureId}/chain`)).status).toBe(404);
    // acme never reads globex's import, by its id or by search.
    expect((await s.call('dev', 'GET', `/v1/runs/${encodeURIComponent(kept!.runId)}/chain`)).status).toBe(404);
    // And no run can be started under an id of the imports' space.
    await expect(s.h.agents.start({ task: 'x', agent: 'triage' }, { workflowId: kept!.runId })).rejects.toMatchObject({
      name: 'ReservedRunIdError',
    });
  });

  it("answers an upload the same whether the id it names is acme's run (in Temporal and the store) or nobody's", async () => {
    const taken = await acmeRun(`d-${randomUUID()}`, `taken${randomUUID().slice(0, 8)}`);
    const nobodys = `trigger.deploys.d-${randomUUID()}`;
    const onTaken = await post('rival', forgery(taken, 'names a run of acme'));
    const onFree = await post('rival', forgery(nobodys, 'names nobody'));
    expect(onTaken.status, JSON.stringify(onTaken.json)).toBe(onFree.status);
    expect(onTaken.status).toBe(201);
    // Everything but what each report itself names (its id, its hash and the id derived from them) is the same.
    const shape = (json: any) =>
      JSON.stringify(json, (k, v) => (['runId', 'originalRunId', 'finalHash'].includes(k) ? '…' : v));
    expect(shape(onTaken.json)).toBe(shape(onFree.json));
    // acme's run is untouched by the upload that named it.
    const chain = await s.call('dev', 'GET', `/v1/runs/${taken}/chain`);
    expect(chain.status).toBe(200);
    expect(JSON.stringify(chain.json)).not.toContain('names a run of acme');
  });
});
