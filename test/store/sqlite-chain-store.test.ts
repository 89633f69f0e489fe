import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openChainStore } from '../../src/store/open-chain-store';
import { openSqlite } from '../helpers/sqlite-file';
import { chainStoreContract } from './chain-store-contract';

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
        ]);
      } finally {
        db.close();
      }
    } finally {
      await store?.close();
    }
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
});
