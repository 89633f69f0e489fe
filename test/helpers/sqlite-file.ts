import type { DatabaseSync } from 'node:sqlite';
import { loadNodeSqlite } from '../../src/activities/cache/load-node-sqlite';

/**
 * Opens a SQLite file with Node's built-in `node:sqlite`, for tests that make or read a database
 * (read-write unless `readOnly`; the SQLite tool opens its own, in its query process).
 */
export function openSqlite(file: string, options: { readOnly?: boolean } = {}): DatabaseSync {
  return new (loadNodeSqlite().DatabaseSync)(file, options);
}
