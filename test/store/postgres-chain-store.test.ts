import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChainStore } from '../../src/store/open-chain-store';
import { openPostgresDriver, postgresWhere } from '../../src/store/sql/postgres-driver';
import { StoreDatabaseError } from '../../src/store/store-errors';
import { STORE_SCHEMA_VERSION } from '../../src/store/sql/store-schema';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres';
import { chainStoreContract } from './chain-store-contract';
import { backToVersion4, expectLegacyImportMoved, writeLegacyImport } from './legacy-import-migration';
import { runUpdateOf, sampleChain } from './store-test-chains';

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startTestPostgres();
});
afterAll(async () => {
  await postgres?.stop();
});

// Each test its own tables in the one cluster: a fresh prefix is a fresh database to the store.
let databases = 0;
const openWith = (tablePrefix: string) =>
  openChainStore({ kind: 'postgres', url: postgres.superuserUrl }, { tablePrefix }).then((store) => store!);

chainStoreContract('PostgreSQL', async () => {
  const prefix = `t${++databases}_`;
  return { open: () => openWith(prefix) };
});

describe('the PostgreSQL chain store', () => {
  it('names its database without the password', () => {
    const where = postgresWhere('postgresql://store:s3cret@db.example:5432/chains');
    expect(where).toBe('postgresql://store@db.example:5432/chains');
    expect(postgresWhere('not a url')).not.toContain('not a url');
  });

  it('survives its connection being ended mid-statement: the statement rejects, the process goes on', async () => {
    // pg emits 'error' on a checked-out client whose server ends it; unheard, that ends the process
    // (vitest reports it as an unhandled error, which fails this file).
    const driver = openPostgresDriver(postgres.superuserUrl);
    try {
      // In a transaction: a checked-out client, which pg-pool does not listen to for us.
      const slow = driver
        .transaction((tx) => tx.query("SELECT pg_sleep(10) AS slept, 'store-driver-probe' AS probe"))
        .then(
          () => 'answered',
          (err: unknown) => err,
        );
      for (let tries = 0; tries < 50; tries++) {
        const ended = await postgres.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%store-driver-probe%' AND pid <> pg_backend_pid()",
        );
        if (ended.rowCount) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await slow).toBeInstanceOf(StoreDatabaseError);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The pool hands out a fresh connection afterwards.
      expect(await driver.query('SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    } finally {
      await driver.close();
    }
  });

  it("moves a run imported before version 5 out of the live runs' id space, with its steps and links", async () => {
    const store = await openWith('legacy_');
    const legacy = await writeLegacyImport(store);
    await store.close();
    for (const sql of backToVersion4('legacy_')) await postgres.query(sql);
    const again = await openWith('legacy_');
    try {
      await expectLegacyImportMoved(again, legacy);
    } finally {
      await again.close();
    }
  });

  it('two servers migrating at once make one schema', async () => {
    const stores = await Promise.all([openWith('race_'), openWith('race_'), openWith('race_')]);
    const versions = await postgres.query('SELECT version FROM race_store_schema');
    expect(versions.rows).toEqual([{ version: STORE_SCHEMA_VERSION }]);
    await Promise.all(stores.map((store) => store.close()));
  });

  it('rejects with a clear error while the database is down, and works again when it is back', async () => {
    const store = await openWith('down_');
    const chain = sampleChain('run-1');
    try {
      await store.putRun(runUpdateOf(chain));
      await store.putSteps('run-1', chain.steps.slice(0, 3));
      postgres.pause();
      try {
        await expect(store.ping()).rejects.toThrow(StoreDatabaseError);
        await expect(store.ping()).rejects.toThrow(`The chain store at ${store.where} failed`);
        await expect(store.putSteps('run-1', chain.steps.slice(3))).rejects.toThrow(StoreDatabaseError);
        await expect(store.run('run-1')).rejects.toThrow(StoreDatabaseError);
      } finally {
        postgres.resume();
      }
      await store.ping();
      await store.putSteps('run-1', chain.steps.slice(3));
      expect(await store.run('run-1')).toMatchObject({ stepCount: 9, lastStep: 9 });
    } finally {
      await store.close();
    }
  });
});
