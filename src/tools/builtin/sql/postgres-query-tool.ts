import type pg from 'pg';
import { loadPg } from '../../../packaging/load-pg';
import { defineTool, type ToolContext, type ToolDefinition } from '../../define-tool';
import { ToolError } from '../../tool-error';
import type { PostgresConnectionOptions } from './postgres-connection';
import { watchDeadline } from './postgres-deadline';
import { postgresRoleRisks, roleRefusal, type PostgresRisk } from './postgres-role-check';
import { RowCollector, positiveCap, type QueryCaps, type SqlQueryResult } from './query-result';
import type { SqlQueryInput } from './sql-input';
import { messageOf, sqlCaps, sqlToolBase, type SqlToolOptions } from './sql-tool-options';

const FEATURE = 'The Postgres query tool';

export interface PostgresQueryToolOptions extends SqlToolOptions {
  /** A connection string, or node-postgres pool options. Use a role with SELECT grants only. */
  connection: string | PostgresConnectionOptions;
  /**
   * Each query's deadline, in milliseconds: `statement_timeout`, and enforced by the tool as well
   * (a query can turn that setting off): at the deadline its backend is cancelled, terminated if it
   * does not stop, and checked gone. Default 10,000, at most 300,000.
   */
  statementTimeoutMs?: number;
  /**
   * Rights of the role that the tool otherwise refuses (see POSTGRES_RISKS): each one named here
   * is accepted knowingly, e.g. `['superuser']` for a throwaway local database. Default none.
   */
  acceptRisks?: readonly PostgresRisk[];
}

/** The server's statement_timeout gets this long to end a query before the tool's own deadline does. */
const SERVER_FIRST_MS = 500;
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
export function createPostgresQueryTool(
  options: PostgresQueryToolOptions,
): ToolDefinition<typeof SqlQueryInput, SqlQueryResult> {
  const caps = sqlCaps(options);
  const statementTimeoutMs = positiveCap('statementTimeoutMs', options.statementTimeoutMs, 10_000, 300_000);
  const config = typeof options.connection === 'string' ? { connectionString: options.connection } : options.connection;
  const accepted = new Set(options.acceptRisks ?? []);
  let pool: pg.Pool | undefined;
  const getPool = () => (pool ??= createPool(config, statementTimeoutMs));
  // The role is checked on the first call (the tool is defined before any connection); a role that
  // passed is not checked again, a refused one at every call, so revoking takes effect without a restart.
  let checked: Promise<void> | undefined;
  const checkRole = (client: pg.PoolClient) =>
    (checked ??= checkOnce(client, accepted).catch((error: unknown) => {
      checked = undefined;
      throw error;
    }));
  return defineTool({
    // Connecting (10 s at most by default) plus the read (about twice the statement limit).
    timeoutMs: statementTimeoutMs * 2 + 15_000,
    ...sqlToolBase(
      options,
      'Runs one read-only SQL query (PostgreSQL dialect, parameters as $1, $2, …) and returns its rows as JSON.',
    ),
    execute: ({ sql, params }, context) =>
      runPostgres({ pool: getPool(), config, checkRole }, sql, params ?? [], caps, statementTimeoutMs, context),
  });
}

async function checkOnce(client: pg.PoolClient, accepted: ReadonlySet<PostgresRisk>): Promise<void> {
  const { role, risks } = await postgresRoleRisks(client);
  const refusal = roleRefusal(role, risks, accepted);
  if (refusal) throw new ToolError(refusal, { retryable: false });
}

function createPool(config: PostgresConnectionOptions, statementTimeoutMs: number): pg.Pool {
  const pool = new (loadPg(FEATURE).Pool)({
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

interface PostgresTarget {
  pool: pg.Pool;
  config: PostgresConnectionOptions;
  checkRole(client: pg.PoolClient): Promise<void>;
}

async function runPostgres(
  { pool, config, checkRole }: PostgresTarget,
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
  // A backend ended under a checked-out client (the deadline, or the query itself) is also emitted
  // as an 'error' event; the call's own error reports it, so the event is not an unhandled one.
  const onError = () => undefined;
  client.on('error', onError);
  // Armed from the first statement, a little after the server's own timeout, which the query can switch off.
  const watch = watchDeadline(client, config as pg.ClientConfig, statementTimeoutMs + SERVER_FIRST_MS);
  try {
    await checkRole(client);
    await client.query('BEGIN READ ONLY');
    await client.query({
      text: "SELECT set_config('statement_timeout', $1, true)",
      values: [`${statementTimeoutMs}ms`],
    });
    try {
      await client.query(extended(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${sql}`, params));
    } catch (error) {
      throw refused(error, CURSOR_HINT);
    }
    const result = await fetchRows(client, caps, () => {
      if (Date.now() > deadline)
        throw new ToolError(`The query ran past its time limit of ${statementTimeoutMs} ms.`, { retryable: false });
      context.heartbeat();
    });
    await client.query('ROLLBACK');
    // Session state survives a rollback (advisory locks, settings): the next call starts clean.
    await client.query('DISCARD ALL');
    return result;
  } catch (error) {
    failed = error;
    const fired = watch.fired();
    if (fired) throw await pastDeadline(fired, statementTimeoutMs, error);
    throw ToolError.is(error) ? error : refused(error);
  } finally {
    watch.stop();
    client.off('error', onError);
    // A client whose call failed or met its deadline may be mid-transaction or cut off: it is dropped, not reused.
    client.release(failed === undefined && !watch.fired() ? undefined : true);
  }
}

/** The error of a call whose deadline stopped it, once the backend is known to be stopped (or could not be confirmed). */
async function pastDeadline(
  fired: ReturnType<ReturnType<typeof watchDeadline>['fired']> & object,
  statementTimeoutMs: number,
  cause: unknown,
): Promise<ToolError> {
  const { pid, how, stopped } = await fired;
  const what = stopped
    ? `PostgreSQL ${how === 'terminated' ? 'terminated its backend' : 'cancelled it'} (pid ${pid}), and it no longer runs`
    : `it was cancelled, but whether its backend (pid ${pid}) stopped could not be confirmed`;
  return new ToolError(`The query ran past its time limit of ${statementTimeoutMs} ms; ${what}.`, {
    retryable: false,
    cause,
  });
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
  const code = error instanceof loadPg(FEATURE).DatabaseError && error.code ? ` (SQLSTATE ${error.code})` : '';
  const serverSide = error instanceof loadPg(FEATURE).DatabaseError;
  const message = serverSide
    ? `PostgreSQL refused the query: ${error.message}${code}.${hint ? ` ${hint}` : ''}`
    : `The PostgreSQL query failed: ${messageOf(error)}`;
  // A dropped connection may be retried; a refusal or a timeout would only repeat.
  return new ToolError(message, { retryable: !serverSide && !/timeout/i.test(messageOf(error)), cause: error });
}

/** The extended protocol even without parameters: one statement only, enforced by the server. */
function extended(text: string, values: unknown[] = []): pg.QueryConfig {
  const config = { text, values, queryMode: 'extended' };
  return config;
}
