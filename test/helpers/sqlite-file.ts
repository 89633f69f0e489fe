import type { DatabaseSync } from 'node:sqlite';
import { loadNodeSqlite } from '../../src/activities/cache/load-node-sqlite';

/**
 * Opens a SQLite file with Node's built-in `node:sqlite`, for tests that make or read a database
 * (the SQLite tool itself runs better-sqlite3 in its query process: docs/tools-sql.md says why).
 */
export function openSqlite(file: string, options: { readOnly?: boolean } = {}): DatabaseSync {
  return new (loadNodeSqlite().DatabaseSync)(file, options);
}
