import type BetterSqlite3 from 'better-sqlite3';
import { defineTool, type ToolDefinition } from '../../define-tool';
import { ToolError } from '../../tool-error';
import { requireOptional } from './require-optional';
import { RowCollector, type QueryCaps, type SqlQueryResult } from './query-result';
import type { SqlQueryInput } from './sql-input';
import { messageOf, sqlCaps, sqlToolBase, type SqlToolOptions } from './sql-tool-options';

export interface SqliteQueryToolOptions extends SqlToolOptions {
  /** The database file; it must exist. It is opened read-only for each call. */
  file: string;
}

type DatabaseConstructor = typeof BetterSqlite3;

/**
 * `sql_query` over a SQLite file. Read-only by the database: the file is opened with
 * `readonly: true, fileMustExist: true` and `PRAGMA query_only = ON`, and only one statement that
 * SQLite itself reports as returning rows and writing nothing runs (no ATTACH, no PRAGMA writes,
 * no VACUUM INTO). The query runs on the worker's thread; the caps stop reading, not a long scan.
 */
export function createSqliteQueryTool(options: SqliteQueryToolOptions): ToolDefinition<typeof SqlQueryInput, SqlQueryResult> {
  const caps = sqlCaps(options);
  return defineTool({
    ...sqlToolBase(options, 'Runs one read-only SQL query (SQLite dialect) and returns its rows as JSON.'),
    execute: ({ sql, params }) => runSqlite(requireOptional<DatabaseConstructor>('better-sqlite3', 'The SQLite tool'), options.file, sql, params ?? [], caps),
  });
}

function runSqlite(Database: DatabaseConstructor, file: string, sql: string, params: unknown[], caps: QueryCaps): SqlQueryResult {
  let db: BetterSqlite3.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new ToolError(`Cannot open the SQLite database: ${messageOf(error)}`, { retryable: false, cause: error });
  }
  try {
    db.pragma('query_only = ON');
    const statement = prepare(db, sql);
    const rows = new RowCollector(caps, statement.columns().map((column) => column.name));
    for (const row of statement.iterate(...params) as IterableIterator<Record<string, unknown>>) {
      if (!rows.add(row)) break;
    }
    return rows.result();
  } catch (error) {
    if (ToolError.is(error)) throw error;
    throw new ToolError(`SQLite refused the query: ${messageOf(error)}`, { retryable: false, cause: error });
  } finally {
    db.close();
  }
}

/** One statement that returns rows and, by SQLite's own account, writes nothing. */
function prepare(db: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  const statement = db.prepare(sql);
  if (!statement.reader || !statement.readonly) {
    throw new ToolError('Only read-only queries that return rows are allowed (SELECT, WITH … SELECT, VALUES); this statement returns no rows or writes.', {
      retryable: false,
    });
  }
  return statement;
}
