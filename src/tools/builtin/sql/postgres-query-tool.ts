import pg from 'pg';
import { defineTool, type ToolContext, type ToolDefinition } from '../../define-tool';
import { ToolError } from '../../tool-error';
import type { PostgresConnectionOptions } from './postgres-connection';
import { RowCollector, positiveCap, type QueryCaps, type SqlQueryResult } from './query-result';
import type { SqlQueryInput } from './sql-input';
import { messageOf, sqlCaps, sqlToolBase, type SqlToolOptions } from './sql-tool-options';

export interface PostgresQueryToolOptions extends SqlToolOptions {
  /** A connection string, or node-postgres pool options. Use a role with SELECT grants only. */
  connection: string | PostgresConnectionOptions;
  /** Each statement's `statement_timeout`, in milliseconds. Default 10,000, at most 300,000. */
  statementTimeoutMs?: number;
}

/** Rows read per FETCH: the most held in memory beyond the result itself. */
const FETCH_BATCH = 100;
const CURSOR = 'thoughtline_sql_query';
/** Only queries a cursor accepts reach the database through this tool. */
const CURSOR_HINT = 'Only a single query that can feed a cursor runs here: SELECT, WITH … SELECT, VALUES or TABLE.';

/**
 * `sql_query` over PostgreSQL. Read-only by the server: each call runs in `BEGIN READ ONLY` with
 * `SET LOCAL statement_timeout`, the query is one parameterised statement on the extended protocol
 * (the server refuses stacked statements) declared as a cursor, rows are fetched in batches until
 * a cap, and the transaction is rolled back, then `DISCARD ALL`. The pool is made on the first call.
 */
export function createPostgresQueryTool(options: PostgresQueryToolOptions): ToolDefinition<typeof SqlQueryInput, SqlQueryResult> {
  const caps = sqlCaps(options);
  const statementTimeoutMs = positiveCap('statementTimeoutMs', options.statementTimeoutMs, 10_000, 300_000);
  let pool: pg.Pool | undefined;
  const getPool = () => (pool ??= createPool(options.connection, statementTimeoutMs));
  return defineTool({
    // Connecting (10 s at most by default) plus the read (about twice the statement limit).
    timeoutMs: statementTimeoutMs * 2 + 15_000,
    ...sqlToolBase(options, 'Runs one read-only SQL query (PostgreSQL dialect, parameters as $1, $2, …) and returns its rows as JSON.'),
    execute: ({ sql, params }, context) => runPostgres(getPool(), sql, params ?? [], caps, statementTimeoutMs, context),
  });
}

function createPool(connection: string | PostgresConnectionOptions, statementTimeoutMs: number): pg.Pool {
  const config = typeof connection === 'string' ? { connectionString: connection } : connection;
  const pool = new pg.Pool({
    max: 4,
    idleTimeoutMillis: 10_000,
    connectionTimeoutMillis: 10_000,
    allowExitOnIdle: true,
    // A client-side bound too, for a server that stops answering.
    query_timeout: statementTimeoutMs + 5_000,
    ...config,
  });
  // An idle client losing its connection is not an error of any call; the next call reconnects.
  pool.on('error', () => undefined);
  return pool;
}

async function runPostgres(
  pool: pg.Pool,
  sql: string,
  params: unknown[],
  caps: QueryCaps,
  statementTimeoutMs: number,
  context: ToolContext,
): Promise<SqlQueryResult> {
  // statement_timeout bounds each FETCH; this bounds the whole read to about twice the limit.
  const deadline = Date.now() + statementTimeoutMs;
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw new ToolError(`Cannot connect to PostgreSQL: ${messageOf(error)}`, { retryable: true, cause: error });
  }
  let failed: unknown;
  try {
    await client.query('BEGIN READ ONLY');
    await client.query({ text: "SELECT set_config('statement_timeout', $1, true)", values: [`${statementTimeoutMs}ms`] });
    try {
      await client.query(extended(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${sql}`, params));
    } catch (error) {
      throw refused(error, CURSOR_HINT);
    }
    const result = await fetchRows(client, caps, () => {
      if (Date.now() > deadline) throw new ToolError(`The query ran past its time limit of ${statementTimeoutMs} ms.`, { retryable: false });
      context.heartbeat();
    });
    await client.query('ROLLBACK');
    // Session state survives a rollback (advisory locks, settings): the next call starts clean.
    await client.query('DISCARD ALL');
    return result;
  } catch (error) {
    failed = error;
    throw ToolError.is(error) ? error : refused(error);
  } finally {
    // A client whose call failed may be mid-transaction or cut off: it is dropped, not reused.
    client.release(failed === undefined ? undefined : true);
  }
}

/** Reads the cursor in batches; `beforeBatch` throws to stop (time limit) and heartbeats. */
async function fetchRows(client: pg.PoolClient, caps: QueryCaps, beforeBatch: () => void): Promise<SqlQueryResult> {
  const rows = new RowCollector(caps);
  let columnsSet = false;
  while (!rows.full) {
    // One row past the cap, so a result of exactly maxRows is not reported as truncated.
    beforeBatch();
    const wanted = Math.min(FETCH_BATCH, caps.maxRows - rows.result().rowCount + 1);
    const batch = await client.query<Record<string, unknown>>(extended(`FETCH FORWARD ${wanted} FROM ${CURSOR}`));
    if (!columnsSet) {
      rows.setColumns(batch.fields.map((field) => field.name));
      columnsSet = true;
    }
    for (const row of batch.rows) if (!rows.add(row)) break;
    if (batch.rows.length < wanted) break;
  }
  return rows.result();
}

/** A query the server refused: final for this call, since retrying the same text fails the same way. */
function refused(error: unknown, hint?: string): ToolError {
  const code = error instanceof pg.DatabaseError && error.code ? ` (SQLSTATE ${error.code})` : '';
  const serverSide = error instanceof pg.DatabaseError;
  const message = serverSide ? `PostgreSQL refused the query: ${error.message}${code}.${hint ? ` ${hint}` : ''}` : `The PostgreSQL query failed: ${messageOf(error)}`;
  // A dropped connection may be retried; a refusal or a timeout would only repeat.
  return new ToolError(message, { retryable: !serverSide && !/timeout/i.test(messageOf(error)), cause: error });
}

/** The extended protocol even without parameters: one statement only, enforced by the server. */
function extended(text: string, values: unknown[] = []): pg.QueryConfig {
  const config = { text, values, queryMode: 'extended' };
  return config;
}
