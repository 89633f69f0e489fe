import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import type { ChainStore } from '../../src/store/chain-store';
import { openChainStore } from '../../src/store/open-chain-store';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres';

/** A fresh empty store; `stop` and `start` take its database down and back (mid-run), where that can be done. */
export interface OpenedStore {
  store: ChainStore;
  stop?(): Promise<void>;
  start?(): Promise<void>;
}
export type StoreKind = () => Promise<OpenedStore>;

/**
 * The stores a test file runs the projection on: [name, open one]. Real databases only: SQLite
 * (a file per store) and PostgreSQL (a database per store on one cluster of
 * the file's, started on first use and stopped after the file). Call at the top of the file.
 */
export function storeKinds(): Array<[string, StoreKind, { stoppable: boolean }]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-store-feed-'));
  let postgres: Promise<TestPostgres> | undefined;
  let databases = 0;
  afterAll(async () => {
    fs.rmSync(root, { recursive: true, force: true });
    await (await postgres)?.stop();
  });
  return [
    [
      'SQLite',
      async () => ({
        store: (await openChainStore({ kind: 'sqlite', file: path.join(root, `store-${++databases}.sqlite`) }))!,
      }),
      // A file in this process: there is no server to stop.
      { stoppable: false },
    ],
    [
      'PostgreSQL',
      async () => {
        postgres ??= startTestPostgres();
        const cluster = await postgres;
        const name = `feed_${++databases}`;
        await cluster.query(`CREATE DATABASE ${name}`);
        const url = cluster.urlFor('postgres').replace(/\/postgres$/, `/${name}`);
        return {
          store: (await openChainStore({ kind: 'postgres', url }))!,
          stop: async () => cluster.pause(),
          start: async () => cluster.resume(),
        };
      },
      { stoppable: true },
    ],
  ];
}
