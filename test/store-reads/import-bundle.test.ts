import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importBundle, MAX_IMPORT_BYTES } from '../../src/audit';
import { useTestEnv } from '../helpers/temporal-env';
import { startLightServer } from '../server/light-server';
import { useExportedRun } from './import-fixture';
import { CARD } from './store-fixture';

/** What the import route answers: its runs, or an error. */
type Answer = { runs: unknown[]; error: { code: string; message: string; issues: { path: string[] }[] } };
const answer = async (res: Response): Promise<Answer> => (await res.json()) as Answer;

const env = useTestEnv();
const x = useExportedRun(env);

describe('importBundle', () => {
  it('refuses an unanchored, an unreadable and an oversized bundle, writing nothing; reads one of exactly the limit', async () => {
    const store = await x.openStore('unit');
    try {
      const limit = Buffer.byteLength(x.text) + 100;
      const options = { trustedKeys: [x.publicKey], importedBy: 'carol', from: 'limit.json', maxBytes: limit };
      await expect(importBundle(x.text, store, { ...options, trustedKeys: [] })).rejects.toMatchObject({
        reason: 'not_verified',
        message: expect.stringMatching(/nothing ties it to its author/),
      });
      await expect(importBundle('{ not json', store, options)).rejects.toMatchObject({ reason: 'unreadable' });
      await expect(importBundle(x.text + ' '.repeat(101), store, options)).rejects.toMatchObject({
        reason: 'too_large',
      });
      expect(await store.runIds({ limit: 10 })).toEqual([]);
      const runs = await importBundle(x.text + ' '.repeat(100), store, options);
      expect(runs).toEqual([expect.objectContaining({ originalRunId: x.runId, outcome: 'imported' })]);
      expect(runs[0]!.runId).toMatch(/^import:[0-9a-f]{32}$/);
    } finally {
      await store.close();
    }
  });
});

describe('POST /v1/imports', () => {
  it("imports for a caller with the auditor's view, in their tenant only; the chain and search read it through the views; tampered and oversized bodies are refused", async () => {
    const store = await x.openStore('api');
    const light = await startLightServer(env, { store });
    const post = (person: keyof typeof light.tokens, body: string) =>
      fetch(`${light.server.url}/v1/imports?publicKey=${x.publicKey}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${light.tokens[person]}`, 'content-type': 'application/json' },
        body,
      });
    const get = async (person: keyof typeof light.tokens, route: string) => {
      const res = await fetch(`${light.server.url}${route}`, {
        headers: { authorization: `Bearer ${light.tokens[person]}` },
      });
      return { status: res.status, text: await res.text() };
    };
    let importId = '';
    const chain = (person: keyof typeof light.tokens) => get(person, `/v1/runs/${importId}/chain`);
    try {
      const bad = await post('auditor', fs.readFileSync(x.tampered, 'utf8'));
      expect(bad.status).toBe(400);
      expect((await answer(bad)).error.message).toMatch(/does not verify: step \d+/);
      expect((await post('dev', x.text)).status).toBe(403);
      const rival = await post('rival', x.text);
      expect(rival.status).toBe(403);
      expect((await answer(rival)).error.issues[0]?.path).toEqual(['other_tenant']);
      const ok = await post('auditor', x.text);
      expect(ok.status).toBe(201);
      const runs = (await answer(ok)).runs as Array<{ runId: string }>;
      expect(runs).toEqual([expect.objectContaining({ originalRunId: x.runId, steps: x.steps, outcome: 'imported' })]);
      importId = runs[0]!.runId;
      expect((await store.run(importId))?.imported).toMatchObject({
        importedBy: 'auditor',
        from: 'api',
        originalRunId: x.runId,
      });
      // The id the report names is not where it is kept: nothing answers it from the import.
      expect((await get('dev', `/v1/runs/${x.runId}/chain`)).status).toBe(404);

      const dev = await chain('dev');
      expect(dev.status).toBe(200);
      expect(JSON.parse(dev.text)).toMatchObject({
        source: 'store',
        storeOnly: true,
        imported: { importedBy: 'auditor', from: 'api', anchor: 'trusted_key', keyId: 'audit-key' },
      });
      expect(dev.text).toContain(x.key);
      expect(dev.text).not.toContain(CARD);
      expect((await chain('auditor')).text).toContain(CARD);
      expect((await chain('rival')).status).toBe(404);
      const found = await get('dev', `/v1/search?text=${x.key}`);
      expect(found.status, found.text).toBe(200);
      expect(JSON.parse(found.text).hits.map((hit: { run: { runId: string } }) => hit.run.runId)).toEqual([importId]);

      // A body of exactly MAX_IMPORT_BYTES is read (the same export: skipped); one byte more is a 413.
      const padded = x.text + ' '.repeat(MAX_IMPORT_BYTES - Buffer.byteLength(x.text));
      const atLimit = await post('auditor', padded);
      expect(atLimit.status).toBe(201);
      expect((await answer(atLimit)).runs).toEqual([expect.objectContaining({ outcome: 'already_imported' })]);
      const over = await post('auditor', `${padded} `);
      expect(over.status).toBe(413);
      expect((await answer(over)).error.code).toBe('payload_too_large');
    } finally {
      await light.close();
      await store.close();
    }
  });
});
