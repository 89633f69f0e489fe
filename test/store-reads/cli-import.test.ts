import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_IMPORT_BYTES } from '../../src/audit';
import { cliEnv, runCli } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';
import { useExportedRun } from './import-fixture';
import { CARD } from './store-fixture';

const env = useTestEnv();
const x = useExportedRun(env);
const cli = (args: string[], store: string) =>
  runCli(args, cliEnv({ THOUGHTLINE_STORE: `sqlite:${x.sqlite(store)}`, THOUGHTLINE_USER: 'carol' }));

describe('thoughtline import', () => {
  it('keeps a verified export in the store, marked imported; chain reads it in the view asked for; twice writes once', async () => {
    const first = await cli(['import', x.file, '--public-key', x.publicKey, '--json'], 'cli');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const runs = JSON.parse(first.stdout).runs as Array<{ runId: string }>;
    expect(runs).toEqual([expect.objectContaining({ originalRunId: x.runId, steps: x.steps, outcome: 'imported' })]);
    // Kept under an id of the imports' own, never the exported run's.
    const importId = runs[0]!.runId;
    expect(importId).toMatch(/^import:[0-9a-f]{32}$/);
    const store = await x.openStore('cli');
    expect(await store.run(x.runId)).toBeUndefined();
    const stored = (await store.run(importId))!;
    await store.close();
    expect(stored).toMatchObject({
      complete: true,
      temporalGone: true,
      state: 'completed',
      terminationReason: 'success',
      tenant: 'acme',
      stepCount: x.steps,
      imported: {
        importedBy: 'carol',
        from: 'bundle.json',
        anchor: 'trusted_key',
        keyId: 'audit-key',
        exportedBy: 'erin',
        originalRunId: x.runId,
      },
    });

    // Temporal no longer has the run: the chain comes from the import, through the developer's view.
    const dev = await cli(['chain', importId, '--json', '--role', 'developer'], 'cli');
    expect(dev.code, dev.stderr).toBe(0);
    const chain = JSON.parse(dev.stdout);
    expect(chain.storeOnly).toBe(true);
    expect(chain.steps).toHaveLength(x.steps);
    expect(dev.stdout).toContain(x.key);
    expect(dev.stdout).not.toContain(CARD);

    const again = await cli(['import', x.file, '--public-key', x.publicKey], 'cli');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`= ${importId} (${x.runId}): already imported`);
    const after = await x.openStore('cli');
    expect(await after.run(importId)).toEqual(stored);
    await after.close();
  });

  it('refuses a tampered export and one over the size limit with exit 1, writing nothing', async () => {
    const edited = await cli(['import', x.tampered, '--public-key', x.publicKey], 'refused');
    expect(edited.code).toBe(1);
    expect(edited.stdout).toMatch(new RegExp(`✗ ${x.runId} does not verify: step \\d+ \\(`));
    const big = path.join(x.dir, 'big.json');
    fs.writeFileSync(big, x.text + ' '.repeat(MAX_IMPORT_BYTES + 1 - Buffer.byteLength(x.text)));
    const tooBig = await cli(['import', big, '--public-key', x.publicKey, '--json'], 'refused');
    fs.rmSync(big);
    expect(tooBig.code).toBe(1);
    expect(JSON.parse(tooBig.stdout).refused).toMatchObject({ reason: 'too_large' });
    const store = await x.openStore('refused');
    expect(await store.runIds({ limit: 10 })).toEqual([]);
    await store.close();
  });
});
