import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ed25519 } from '@noble/curves/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import { auditReport, importBundle, ImportRefusedError, MAX_IMPORT_BYTES, sealAll } from '../../src/audit';
import type { AuditBundle } from '../../src/audit';
import { base64UrlEncode } from '../../src/domain/approval/signed-decision';
import { openChainStore } from '../../src/store/open-chain-store';
import type { ChainStore } from '../../src/store/chain-store';
import { cliEnv, runCli } from '../helpers/cli-process';
import { runScripted } from '../helpers/run-scripted';
import { useTestEnv } from '../helpers/temporal-env';
import { startLightServer } from '../server/light-server';
import { CARD, viewTools } from './store-fixture';

const env = useTestEnv();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-import-'));
const tag = Math.random().toString(36).slice(2, 8);
const KEY = `importkey${tag}`;
const seed = new Uint8Array(32).fill(7);
const publicKey = base64UrlEncode(ed25519.getPublicKey(seed));
const file = path.join(dir, 'bundle.json');
const tampered = path.join(dir, 'tampered.json');
let runId: string;
let text: string;
let steps: number;

const sqlite = (name: string) => path.join(dir, `${name}.sqlite`);
const openStore = async (name: string): Promise<ChainStore> => (await openChainStore({ kind: 'sqlite', file: sqlite(name) }))!;
const cli = (args: string[], store: string) =>
  runCli(args, cliEnv({ THOUGHTLINE_STORE: `sqlite:${sqlite(store)}`, THOUGHTLINE_USER: 'carol' }));

beforeAll(async () => {
  const run = await runScripted(env, {
    tools: viewTools(),
    input: { task: `import-${tag}: pay`, agentName: `import-agent-${tag}`, caller: { id: 'dev', roles: [], tenant: 'acme' } },
    script: [
      { content: [useTool('pay', { card: CARD, amount: 3 }), useTool('lookup', { key: KEY })] },
      { content: [useTool('finish', { result: 'paid' })] },
    ],
  });
  runId = run.workflowId;
  const report = sealAll(
    await auditReport(new AgentClient({ client: env.client }), runId, 'auditor', { id: 'erin', roles: ['auditor'] }),
    { keyId: 'audit-key', seed },
  );
  steps = report.steps.length;
  const bundle: AuditBundle = {
    kind: 'thoughtline-audit-bundle',
    query: 'test',
    exportedAt: new Date().toISOString(),
    truncated: false,
    reports: [report],
  };
  text = `${JSON.stringify(bundle, null, 2)}\n`;
  fs.writeFileSync(file, text);
  fs.writeFileSync(tampered, text.replace(`"key": "${KEY}"`, `"key": "${KEY}x"`));
  // Temporal forgets the run (as retention would): what follows reads the import alone.
  await env.client.workflowService.deleteWorkflowExecution({
    namespace: env.client.options.namespace,
    workflowExecution: { workflowId: runId },
  });
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('thoughtline import', () => {
  it('keeps a verified export in the store, marked imported; chain and search read it in each view; twice writes once', async () => {
    const first = await cli(['import', file, '--public-key', publicKey, '--json'], 'cli');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).runs).toEqual([
      expect.objectContaining({ runId, steps, outcome: 'imported' }),
    ]);

    const store = await openStore('cli');
    const stored = (await store.run(runId))!;
    await store.close();
    expect(stored).toMatchObject({
      complete: true,
      temporalGone: true,
      state: 'completed',
      terminationReason: 'success',
      tenant: 'acme',
      stepCount: steps,
      imported: { importedBy: 'carol', from: 'bundle.json', anchor: 'trusted_key', keyId: 'audit-key', exportedBy: 'erin' },
    });

    const dev = await cli(['chain', runId, '--json', '--role', 'developer'], 'cli');
    expect(dev.code, dev.stderr).toBe(0);
    const devChain = JSON.parse(dev.stdout);
    expect(devChain.storeOnly).toBe(true);
    expect(devChain.steps).toHaveLength(steps);
    expect(dev.stdout).toContain(KEY);
    expect(dev.stdout).not.toContain(CARD);
    const auditor = await cli(['chain', runId, '--json', '--role', 'auditor'], 'cli');
    expect(auditor.stdout).toContain(CARD);

    const found = await cli(['search', '--tenant', 'acme', '--text', KEY, '--json'], 'cli');
    expect(found.code, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout).hits.map((hit: { run: { runId: string } }) => hit.run.runId)).toEqual([runId]);

    const again = await cli(['import', file, '--public-key', publicKey], 'cli');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`= ${runId}: already imported`);
    const after = await openStore('cli');
    expect(await after.run(runId)).toEqual(stored);
    await after.close();
  });

  it('refuses a tampered, an unanchored or an unreadable export, writing nothing', async () => {
    const edited = await cli(['import', tampered, '--public-key', publicKey], 'refused');
    expect(edited.code).toBe(1);
    expect(edited.stdout).toMatch(new RegExp(`✗ ${runId} does not verify: step \\d+ \\(`));
    const unanchored = await cli(['import', file, '--json'], 'refused');
    expect(unanchored.code).toBe(1);
    expect(JSON.parse(unanchored.stdout).refused).toMatchObject({ reason: 'not_verified' });
    fs.writeFileSync(path.join(dir, 'notes.json'), '{ not json');
    const unreadable = await cli(['import', path.join(dir, 'notes.json'), '--public-key', publicKey], 'refused');
    expect(unreadable.code).toBe(1);
    expect(unreadable.stdout).toContain('not JSON');
    const store = await openStore('refused');
    expect(await store.run(runId)).toBeUndefined();
    expect(await store.runIds({ limit: 10 })).toEqual([]);
    await store.close();
  });

  it('reads a bundle of exactly the byte limit and refuses one byte more', async () => {
    const store = await openStore('limit');
    try {
      const limit = Buffer.byteLength(text) + 100;
      const options = { trustedKeys: [publicKey], importedBy: 'carol', from: 'limit.json', maxBytes: limit };
      const over = text + ' '.repeat(101);
      await expect(importBundle(over, store, options)).rejects.toMatchObject({ reason: 'too_large' });
      expect(await store.run(runId)).toBeUndefined();
      const runs = await importBundle(text + ' '.repeat(100), store, options);
      expect(runs).toEqual([expect.objectContaining({ runId, outcome: 'imported' })]);
    } finally {
      await store.close();
    }
    const big = path.join(dir, 'big.json');
    fs.writeFileSync(big, text + ' '.repeat(MAX_IMPORT_BYTES + 1 - Buffer.byteLength(text)));
    const tooBig = await cli(['import', big, '--public-key', publicKey], 'limit-cli');
    expect(tooBig.code).toBe(1);
    expect(tooBig.stdout).toMatch(/over the \d+-byte limit/);
    fs.rmSync(big);
  });
});

describe('POST /v1/imports', () => {
  it("imports for a caller with the auditor's view, in their tenant only; the chain reads back through the views; tampered and oversized bodies are refused", async () => {
    const store = await openStore('api');
    const light = await startLightServer(env, { store });
    const post = (person: keyof typeof light.tokens, body: string, query = `?publicKey=${publicKey}`) =>
      fetch(`${light.server.url}/v1/imports${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${light.tokens[person]}`, 'content-type': 'application/json' },
        body,
      });
    const chain = async (person: keyof typeof light.tokens) => {
      const res = await fetch(`${light.server.url}/v1/runs/${runId}/chain`, {
        headers: { authorization: `Bearer ${light.tokens[person]}` },
      });
      return { status: res.status, text: await res.text() };
    };
    try {
      const bad = await post('auditor', fs.readFileSync(tampered, 'utf8'));
      expect(bad.status).toBe(400);
      expect((await bad.json()).error.message).toMatch(/does not verify: step \d+/);
      expect(await store.run(runId)).toBeUndefined();
      expect((await post('dev', text)).status).toBe(403);
      const rival = await post('rival', text);
      expect(rival.status).toBe(403);
      expect((await rival.json()).error.issues[0].path).toEqual(['other_tenant']);
      expect(await store.run(runId)).toBeUndefined();

      const ok = await post('auditor', text);
      expect(ok.status).toBe(201);
      expect((await ok.json()).runs).toEqual([expect.objectContaining({ runId, steps, outcome: 'imported' })]);
      expect((await store.run(runId))?.imported).toMatchObject({ importedBy: 'auditor', from: 'api' });

      const dev = await chain('dev');
      expect(dev.status).toBe(200);
      expect(JSON.parse(dev.text)).toMatchObject({ source: 'store', storeOnly: true });
      expect(dev.text).toContain(KEY);
      expect(dev.text).not.toContain(CARD);
      expect((await chain('auditor')).text).toContain(CARD);
      expect((await chain('rival')).status).toBe(404);

      // The limit: a body of exactly MAX_IMPORT_BYTES is read (and is the same export: skipped); one byte more is 413.
      const padded = text + ' '.repeat(MAX_IMPORT_BYTES - Buffer.byteLength(text));
      const atLimit = await post('auditor', padded);
      expect(atLimit.status).toBe(201);
      expect((await atLimit.json()).runs).toEqual([expect.objectContaining({ outcome: 'already_imported' })]);
      const over = await post('auditor', `${padded} `);
      expect(over.status).toBe(413);
      expect((await over.json()).error.code).toBe('payload_too_large');
    } finally {
      await light.close();
      await store.close();
    }
  });
});
