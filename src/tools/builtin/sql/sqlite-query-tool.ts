import { spawn } from 'node:child_process';
import { defineTool, type ToolContext, type ToolDefinition } from '../../define-tool';
import { ToolError } from '../../tool-error';
import { positiveCap, RowCollector, type QueryCaps, type SqlQueryResult } from './query-result';
import type { SqlQueryInput } from './sql-input';
import { SQLITE_CHILD_MARKER, SQLITE_CHILD_SOURCE } from './sqlite-child-source';
import { sqlCaps, sqlToolBase, type SqlToolOptions } from './sql-tool-options';

export interface SqliteQueryToolOptions extends SqlToolOptions {
  /** The database file; it must exist. It is opened read-only for each call. */
  file: string;
  /** Each query's deadline, in milliseconds: past it the query's process is killed. Default 10,000, at most 300,000. */
  queryTimeoutMs?: number;
}

/** What the query process answers: rows, or why there are none. */
type ChildAnswer =
  | { kind: 'rows'; columns: string[]; rows: Record<string, unknown>[] }
  | { kind: 'open'; message: string }
  | { kind: 'not-read-only' }
  | { kind: 'refused'; message: string };

/**
 * `sql_query` over a SQLite file. Read-only by the database: the file is opened with
 * `readonly: true, fileMustExist: true` and `PRAGMA query_only = ON`, and only one statement that
 * SQLite itself reports as returning rows and writing nothing runs (no ATTACH, no PRAGMA writes,
 * no VACUUM INTO). Each query runs in a process of its own, killed at the deadline: better-sqlite3
 * cannot interrupt a query, and a worker thread cannot be stopped inside its native call.
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
      const answer = await runInChild(
        {
          module: betterSqlite3Path(),
          file: options.file,
          sql,
          params: params ?? [],
          maxRows: caps.maxRows,
          maxBytes: caps.maxBytes,
        },
        queryTimeoutMs,
        context,
      );
      return collect(answer, caps);
    },
  });
}

/**
 * Where better-sqlite3 is, for the query process to load; a final ToolError that says what to install
 * when it is missing. Not Node's own `node:sqlite`: on Node 22 it cannot say before a statement runs
 * whether it writes or returns rows, nor refuse a second statement (docs/tools-sql.md).
 */
function betterSqlite3Path(): string {
  try {
    return require.resolve('better-sqlite3');
  } catch (error) {
    throw new ToolError(
      'The SQLite tool needs the package better-sqlite3: install it next to thoughtline (npm install better-sqlite3).',
      { retryable: false, cause: error },
    );
  }
}

function collect(answer: ChildAnswer, caps: QueryCaps): SqlQueryResult {
  switch (answer.kind) {
    case 'rows': {
      const rows = new RowCollector(caps, answer.columns);
      for (const row of answer.rows) if (!rows.add(row)) break;
      return rows.result();
    }
    case 'open':
      throw new ToolError(`Cannot open the SQLite database: ${answer.message}`, { retryable: false });
    case 'not-read-only':
      throw new ToolError(
        'Only read-only queries that return rows are allowed (SELECT, WITH … SELECT, VALUES); this statement returns no rows or writes.',
        { retryable: false },
      );
    case 'refused':
      throw new ToolError(`SQLite refused the query: ${answer.message}`, { retryable: false });
  }
}

/**
 * Runs one job in a new process and waits for its answer. At the deadline, or when the activity
 * is cancelled, the process is killed and the call ends only once it has exited: no query goes on
 * using a core after its call. Its stderr is kept (the tail) for a process that dies on its own.
 */
function runInChild(job: Record<string, unknown>, timeoutMs: number, context: ToolContext): Promise<ChildAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', SQLITE_CHILD_SOURCE, SQLITE_CHILD_MARKER], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2_000)));
    let outcome: { answer: ChildAnswer } | { error: unknown } | undefined;
    const end = (result: NonNullable<typeof outcome>) => {
      if (outcome) return;
      outcome = result;
      clearTimeout(timer);
      context.signal.removeEventListener('abort', onAbort);
      // Killed or not, the call settles when the process is gone.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () =>
        end({
          error: new ToolError(`The query ran past its time limit of ${timeoutMs} ms; its process was stopped.`, {
            retryable: false,
          }),
        }),
      timeoutMs,
    );
    const onAbort = () => end({ error: context.signal.reason ?? new Error('cancelled') });
    context.signal.addEventListener('abort', onAbort, { once: true });
    child.on('message', (answer: ChildAnswer) => end({ answer }));
    child.on('error', (error) =>
      end({
        error: new ToolError(`The SQLite query process could not start: ${error.message}`, {
          retryable: true,
          cause: error,
        }),
      }),
    );
    // 'close', not 'exit': the answer may still be in the IPC channel when the process has exited.
    child.on('close', (code, signal) => {
      end({
        error: new ToolError(
          `The SQLite query process ended without an answer (${signal ?? `exit ${code}`})${stderr ? `: ${stderr.trim()}` : ''}.`,
          { retryable: false },
        ),
      });
      const result = outcome!;
      if ('answer' in result) resolve(result.answer);
      else reject(result.error);
    });
    child.send(job);
  });
}
