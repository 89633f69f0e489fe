import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainStore } from '../../src/store/chain-store';
import { openChainStore } from '../../src/store/open-chain-store';
import { openPostgresDriver } from '../../src/store/sql/postgres-driver';
import { ViewerPreferences } from '../../src/domain/visibility';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres';
import { openSqlite } from '../helpers/sqlite-file';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-preferences-'));
let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startTestPostgres();
});
afterAll(async () => {
  await postgres?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

const quiet = ViewerPreferences.parse({ thinking: false, summariesOnly: true });

/** Each store's kind, how to open a fresh one, and how to write a raw preferences row behind its back. */
const kinds = [
  {
    name: 'SQLite',
    open: async (n: number) => {
      const file = path.join(root, `db-${n}`, 'store.sqlite');
      const store = (await openChainStore({ kind: 'sqlite', file }))!;
      const corrupt = async (id: string, json: string) => {
        const db = openSqlite(file);
        db.prepare('UPDATE thoughtline_viewer_preferences SET preferences_json = ? WHERE identity_id = ?').run(
          json,
          id,
        );
        db.close();
      };
      return { store, corrupt };
    },
  },
  {
    name: 'PostgreSQL',
    open: async (n: number) => {
      const tablePrefix = `prefs${n}_`;
      const store = (await openChainStore({ kind: 'postgres', url: postgres.superuserUrl }, { tablePrefix }))!;
      const corrupt = async (id: string, json: string) => {
        const driver = openPostgresDriver(postgres.superuserUrl);
        await driver.run(`UPDATE ${tablePrefix}viewer_preferences SET preferences_json = ? WHERE identity_id = ?`, [
          json,
          id,
        ]);
        await driver.close();
      };
      return { store, corrupt };
    },
  },
];

let opened = 0;
for (const kind of kinds) {
  describe(`viewer preferences in the ${kind.name} store`, () => {
    let store: ChainStore;
    let corrupt: (id: string, json: string) => Promise<void>;
    beforeAll(async () => {
      ({ store, corrupt } = await kind.open(++opened));
    });
    afterAll(async () => store?.close());

    it('round-trip per identity, and a second write replaces the first', async () => {
      expect(await store.readPreferences('alice')).toBeUndefined();
      await store.writePreferences('alice', quiet);
      await store.writePreferences('bob', ViewerPreferences.parse({ externalCalls: false }));
      expect(await store.readPreferences('alice')).toEqual(quiet);
      expect((await store.readPreferences('bob'))?.externalCalls).toBe(false);
      await store.writePreferences('alice', ViewerPreferences.parse({}));
      expect((await store.readPreferences('alice'))?.thinking).toBe(true);
      expect((await store.readPreferences('bob'))?.thinking).toBe(true);
    });

    it('reads a row that no longer parses as none', async () => {
      await store.writePreferences('carol', quiet);
      for (const broken of ['{"thinking": "maybe"}', '{"thinking": false, "colour": "blue"}', 'not json', '[]']) {
        await corrupt('carol', broken);
        expect(await store.readPreferences('carol'), broken).toBeUndefined();
      }
    });
  });
}
