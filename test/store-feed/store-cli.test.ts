import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/events/memory-bus';
import { createChainStoreProjection } from '../../src/server/chain-store/chain-store-projection';
import { openChainStore } from '../../src/store/open-chain-store';
import { cliEnv, runCli } from '../helpers/cli-process';
import { openSqlite } from '../helpers/sqlite-file';
import { useTestEnv } from '../helpers/temporal-env';
import { createFeedWorker, eventually, lookupModel } from './feed-harness';

const env = useTestEnv();
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-store-cli-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('thoughtline store check', () => {
  it('exits 0 when the store equals Temporal, and 1 naming the step after a stored row is corrupted', async () => {
    const file = path.join(root, 'store.sqlite');
    const store = (await openChainStore({ kind: 'sqlite', file }))!;
    const bus = createMemoryBus();
    const feed = await createFeedWorker(env, lookupModel(2, 0), bus);
    const projection = createChainStoreProjection({ store, agents: feed.agents, bus, log: () => {} });
    await projection.start();
    const workflowId = await feed.worker.runUntil(async () => {
      const handle = await feed.start('store-feed: checked by the CLI');
      await handle.result();
      return handle.workflowId;
    });
    expect(await eventually(async () => (await store.run(workflowId))?.complete === true)).toBe(true);
    await projection.close();
    await store.close();

    const cli = cliEnv({ THOUGHTLINE_STORE: `sqlite:${file}`, TEMPORAL_NAMESPACE: feed.namespace });
    const equal = await runCli(['store', 'check', '--run', workflowId, '--json'], cli);
    expect(equal.stderr).not.toMatch(/error/i);
    expect(equal.code).toBe(0);
    expect(JSON.parse(equal.stdout)).toEqual({ runs: 1, differences: [] });

    const db = openSqlite(file);
    try {
      const row = db
        .prepare('SELECT step_json FROM thoughtline_steps WHERE run_id = ? AND step_number = 2')
        .get(workflowId) as { step_json: string };
      const step = JSON.parse(row.step_json) as Record<string, unknown>;
      db.prepare('UPDATE thoughtline_steps SET step_json = ? WHERE run_id = ? AND step_number = 2').run(
        JSON.stringify({ ...step, timestamp: '2000-01-01T00:00:00.000Z' }),
        workflowId,
      );
    } finally {
      db.close();
    }
    const corrupted = await runCli(['store', 'check', '--run', workflowId], cli);
    expect(corrupted.code).toBe(1);
    expect(corrupted.stdout).toContain(`${workflowId}: step 2: differs`);
    expect(corrupted.stdout).toContain('1 difference.');
  });

  it('refuses --run without check, and a store that is off', async () => {
    const misuse = await runCli(['store', 'rebuild', '--run', 'x'], cliEnv({}));
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toContain('--run and --json go with store check');
    const off = await runCli(['store', 'check'], cliEnv({ THOUGHTLINE_STORE: 'off' }));
    expect(off.code).toBe(2);
    expect(off.stderr).toContain('The chain store is off');
  });
});
