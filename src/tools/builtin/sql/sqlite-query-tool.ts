import { defineTool, type ToolDefinition } from '../../define-tool';
import { ToolError } from '../../tool-error';
import { positiveCap, RowCollector, type QueryCaps, type SqlQueryResult } from './query-result';
import { runSqliteQuery, type SqliteAnswer } from './run-sqlite-query';
import type { SqlQueryInput } from './sql-input';
import { sqlCaps, sqlToolBase, type SqlToolOptions } from './sql-tool-options';

export interface SqliteQueryToolOptions extends SqlToolOptions {
  /** The database file; it must exist. It is opened read-only for each call. */
  file: string;
  /** Each query's deadline, in milliseconds: past it the query's process is killed. Default 10,000, at most 300,000. */
  queryTimeoutMs?: number;
}

/**
 * `sql_query` over a SQLite file, with Node's own `node:sqlite` (nothing to install or compile).
 * Read-only by the database: the file is opened with `readOnly: true` and `PRAGMA query_only = ON`,
 * and a statement runs only if it is the input's one statement and SQLite compiles it to a program
 * of read opcodes that returns rows (no ATTACH, no PRAGMA writes, no VACUUM INTO). Each query runs
 * in a process of its own, killed at the deadline: SQLite cannot be stopped inside its native call.
 */
export function createSqliteQueryTool(
  options: SqliteQueryToolOptions,
): ToolDefinition<typeof SqlQueryInput, SqlQueryResult> {
  const caps = sqlCaps(options);
  const queryTimeoutMs = positiveCap('queryTimeoutMs', options.queryTimeoutMs, 10_000, 300_000);
  return defineTool({
    // The query, plus starting its process and reading the answer.
    timeoutMs: queryTimeoutMs + 15_000,
    ...sqlToolBase(options, 'Runs one read-only SQL query (SQLite dialect) and returns its rows as JSON.'),
    execute: async ({ sql, params }, context) => {
      const job = {
        file: options.file,
        sql,
        // SQLite has no booleans: true and false are 1 and 0, as its own TRUE and FALSE.
        params: (params ?? []).map((value) => (typeof value === 'boolean' ? Number(value) : value)),
        maxRows: caps.maxRows,
        maxBytes: caps.maxBytes,
      };
      return collect(await runSqliteQuery(job, queryTimeoutMs, context), caps);
    },
  });
}

function collect(answer: SqliteAnswer, caps: QueryCaps): SqlQueryResult {
  switch (answer.kind) {
    case 'rows': {
      const rows = new RowCollector(caps, answer.columns);
      for (const row of answer.rows) if (!rows.add(row)) break;
      return rows.result();
    }
    case 'open':
      throw new ToolError(`Cannot open the SQLite database: ${answer.message}`, { retryable: false });
    case 'not-one-statement':
      throw new ToolError(
        `Only one statement is allowed; SQLite compiled ${JSON.stringify(clip(answer.compiled))} and more follows it.`,
        { retryable: false },
      );
    case 'not-read-only':
      throw new ToolError(
        `Only read-only queries that return rows are allowed (SELECT, WITH … SELECT, VALUES); ${answer.reason}.`,
        { retryable: false },
      );
    case 'refused':
      throw new ToolError(`SQLite refused the query: ${answer.message}`, { retryable: false });
  }
}

const clip = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}…` : text);
