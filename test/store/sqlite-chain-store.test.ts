import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openChainStore } from '../../src/store/open-chain-store';
import { StoreDatabaseError } from '../../src/store/store-errors';
import { openSqlite } from '../helpers/sqlite-file';
import { chainStoreContract } from './chain-store-contract';
import { backToVersion4, expectLegacyImportMoved, writeLegacyImport } from './legacy-import-migration';
import { runUpdateOf, sampleChain } from './store-test-chains';

/** Another process that holds the database's write lock for `ms`, then commits; resolves once it holds it. */
function holdWriteLock(file: string, ms: number): Promise<{ done: Promise<void> }> {
  const code = `
    const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(process.argv[1]);
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec('BEGIN IMMEDIATE');
    db.exec("UPDATE thoughtline_runs SET task = 'from the other process'");
    process.stdout.write('locked');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${ms});`;
  const child = spawn(process.execPath, ['--no-warnings', '-e', code, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const done = new Promise<void>((resolve, reject) =>
    child.on('exit', (status) => (status === 0 ? resolve() : reject(new Error(`the other process exited ${status}`)))),
  );
  return new Promise((resolve, reject) => {
    child.stdout.on('data', () => resolve({ done }));
    child.on('error', reject);
    done.catch(reject);
  });
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-store-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let databases = 0;

chainStoreContract('SQLite', async () => {
  const file = path.join(root, `db-${++databases}`, 'store.sqlite');
  return { open: async () => (await openChainStore({ kind: 'sqlite', file }))! };
});

describe('the SQLite chain store', () => {
  it("creates its file's folder, names the file, and keeps the database in WAL", async () => {
    const file = path.join(root, 'nested', 'deeper', 'store.sqlite');
    const store = await openChainStore({ kind: 'sqlite', file });
    try {
      expect(store?.kind).toBe('sqlite');
      expect(store?.where).toBe(file);
      const db = openSqlite(file);
      try {
        expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
        const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
        expect(tables.map((t) => t.name)).toEqual([
          'thoughtline_runs',
          'thoughtline_steps',
          'thoughtline_store_schema',
          'thoughtline_viewer_preferences',
        ]);
      } finally {
        db.close();
      }
    } finally {
      await store?.close();
    }
  });

  it('waits for another process that holds the write lock, then writes', async () => {
    const file = path.join(root, 'shared.sqlite');
    const store = (await openChainStore({ kind: 'sqlite', file }))!;
    try {
      const chain = sampleChain('run-1');
      await store.putRun(runUpdateOf(chain));
      const other = await holdWriteLock(file, 1_000);
      const started = Date.now();
      // Readers never wait in WAL; the writer waits for the other process's commit.
      expect((await store.run('run-1'))?.task).toBe(chain.task);
      await store.putSteps('run-1', chain.steps);
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      await other.done;
      expect(await store.run('run-1')).toMatchObject({ task: 'from the other process', stepCount: 9 });
    } finally {
      await store.close();
    }
  });

  it('says which file it could not open', async () => {
    // A folder where the file should be.
    await expect(openChainStore({ kind: 'sqlite', file: root })).rejects.toThrow(StoreDatabaseError);
    await expect(openChainStore({ kind: 'sqlite', file: root })).rejects.toThrow(`The chain store at ${root} failed`);
  });

  it('is nothing when the setting is off', async () => {
    expect(await openChainStore({ kind: 'off' })).toBeUndefined();
  });

  it('refuses a database of a newer schema', async () => {
    const file = path.join(root, 'newer.sqlite');
    await (await openChainStore({ kind: 'sqlite', file }))!.close();
    const db = openSqlite(file);
    db.exec('UPDATE thoughtline_store_schema SET version = 99');
    db.close();
    await expect(openChainStore({ kind: 'sqlite', file })).rejects.toThrow(/version 99, newer/);
  });

  it("moves a run imported before version 5 out of the live runs' id space, with its steps and links", async () => {
    const file = path.join(root, 'v4.sqlite');
    const store = (await openChainStore({ kind: 'sqlite', file }))!;
    const legacy = await writeLegacyImport(store);
    await store.close();
    const db = openSqlite(file);
    for (const sql of backToVersion4('thoughtline_')) db.exec(sql);
    db.close();
    const again = (await openChainStore({ kind: 'sqlite', file }))!;
    try {
      await expectLegacyImportMoved(again, legacy);
    } finally {
      await again.close();
    }
  });
});
