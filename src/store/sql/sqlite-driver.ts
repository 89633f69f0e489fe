import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { loadNodeSqlite } from '../../activities/cache/load-node-sqlite';
import type { SqlDialect, SqlDriver, SqlExecutor, SqlRow, SqlValue } from './sql-driver';
import { StoreDatabaseError } from '../store-errors';

/** How long a writer waits for another process's write lock before failing. */
const BUSY_TIMEOUT_MS = 5_000;

const dialect: SqlDialect = {
  contains: (haystack) => `instr(${haystack}, ?) > 0`,
  jsonField: (column, path) => `json_extract(${column}, '$.${path.join('.')}')`,
  // BEGIN IMMEDIATE already holds the database's write lock.
  forUpdate: '',
  migrationLock: () => [],
};

/**
 * One queue per database file in this process. node:sqlite is synchronous: a second connection
 * in the same thread that waited on the first's write lock would block the very thread that must
 * release it, so writers in one process take turns here, and other processes wait on SQLite's
 * busy timeout.
 */
const fileQueues = new Map<string, Promise<unknown>>();

function inTurn<T>(file: string, work: () => Promise<T>): Promise<T> {
  const previous = fileQueues.get(file) ?? Promise.resolve();
  const result = previous.then(work, work);
  const settled = result.then(
    () => undefined,
    () => undefined,
  );
  fileQueues.set(file, settled);
  void settled.then(() => {
    if (fileQueues.get(file) === settled) fileQueues.delete(file);
  });
  return result;
}

/** The chain store's SQLite connection: WAL (readers never wait for the writer), prepared statements cached. */
export function openSqliteDriver(file: string): SqlDriver {
  const resolved = path.resolve(file);
  fs.mkdirSync(path.dirname(resolved), { recursive: true });
  const fail = (cause: unknown) => new StoreDatabaseError(resolved, cause);
  // Outside the try: a Node without node:sqlite is said as itself, not as the store failing.
  const sqlite = loadNodeSqlite(`The chain store at ${resolved}`);
  let db: DatabaseSync;
  try {
    db = new sqlite.DatabaseSync(resolved);
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
  } catch (error) {
    throw fail(error);
  }
  const statements = new Map<string, StatementSync>();
  const prepared = (sql: string): StatementSync => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const executor: SqlExecutor = {
    dialect,
    query: async (sql, params = []) => {
      try {
        return prepared(sql).all(...(params as SqlValue[])) as SqlRow[];
      } catch (error) {
        throw fail(error);
      }
    },
    run: async (sql, params = []) => {
      try {
        return Number(prepared(sql).run(...(params as SqlValue[])).changes);
      } catch (error) {
        throw fail(error);
      }
    },
  };
  let closed = false;
  return {
    kind: 'sqlite',
    where: resolved,
    dialect,
    // Outside a transaction, in turn too: between two statements of a transaction on this
    // connection, a read would otherwise see its uncommitted half.
    query: (sql, params) => inTurn(resolved, () => executor.query(sql, params)),
    run: (sql, params) => inTurn(resolved, () => executor.run(sql, params)),
    transaction: (work) =>
      inTurn(resolved, async () => {
        try {
          db.exec('BEGIN IMMEDIATE');
        } catch (error) {
          throw fail(error);
        }
        try {
          const result = await work(executor);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          try {
            db.exec('ROLLBACK');
          } catch {
            // A failed COMMIT may have ended the transaction already; the first error is the one to report.
          }
          throw error instanceof Error && !isSqliteError(error) ? error : fail(error);
        }
      }),
    close: async () => {
      if (closed) return;
      closed = true;
      await inTurn(resolved, async () => db.close());
    },
  };
}

const isSqliteError = (error: Error): boolean => (error as { code?: string }).code === 'ERR_SQLITE_ERROR';
