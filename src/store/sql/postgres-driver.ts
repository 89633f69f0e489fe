import type pg from 'pg';
import { loadPg } from '../../packaging/load-pg';
import type { SqlDialect, SqlDriver, SqlExecutor, SqlRow, SqlValue } from './sql-driver';
import { StoreDatabaseError } from '../store-errors';

const FEATURE = 'The Postgres chain store';

/** How long a statement waits for a connection before the store says the database is down. */
const CONNECT_TIMEOUT_MS = 5_000;
const POOL_SIZE = 5;

const dialect: SqlDialect = {
  contains: (haystack) => `strpos(${haystack}, ?) > 0`,
  // json, not jsonb: the text is parsed, never decomposed and stored.
  jsonField: (column, path) => `(${column}::json #>> '{${path.join(',')}}')`,
  forUpdate: ' FOR UPDATE',
  // Two servers starting at once: CREATE TABLE IF NOT EXISTS is not safe against itself.
  migrationLock: (prefix) => [`SELECT pg_advisory_xact_lock(hashtext('${prefix}store_schema'))`],
};

/** `?` placeholders numbered as PostgreSQL wants them (the store's SQL has no `?` in literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/**
 * PostgreSQL's text cannot hold NUL, which a thought, a task or an error may carry: it is bound as
 * U+FFFD, the same on every write and read, so lookups still agree. (JSON columns escape it already.)
 */
const bindable = (params: readonly SqlValue[]): SqlValue[] =>
  params.map((value) =>
    typeof value === 'string' && value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value,
  );

/** The URL without its password, for messages. */
export function postgresWhere(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'postgres (an unreadable URL)';
  }
}

/** The chain store's PostgreSQL pool. A lost server fails statements; the pool reconnects when it is back. */
export function openPostgresDriver(url: string): SqlDriver {
  const where = postgresWhere(url);
  const fail = (cause: unknown) => (cause instanceof StoreDatabaseError ? cause : new StoreDatabaseError(where, cause));
  const pool = new (loadPg(FEATURE).Pool)({
    connectionString: url,
    max: POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
  });
  // A connection dropped by a stopped server emits 'error': on the pool while idle, on the client
  // while checked out (its statement also rejects, which the caller sees). Unheard, either would end
  // the process; each connection gets a listener as it is made.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => void client.on('error', () => undefined));
  const on = (client: pg.Pool | pg.PoolClient): SqlExecutor => ({
    dialect,
    query: async (sql, params = []) => {
      try {
        return (await client.query(numbered(sql), bindable(params))).rows as SqlRow[];
      } catch (error) {
        throw fail(error);
      }
    },
    run: async (sql, params = []) => {
      try {
        return (await client.query(numbered(sql), bindable(params))).rowCount ?? 0;
      } catch (error) {
        throw fail(error);
      }
    },
  });
  let closed: Promise<void> | undefined;
  return {
    kind: 'postgres',
    where,
    ...on(pool),
    async transaction(work) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw fail(error);
      }
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await work(on(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          // The connection is gone: drop it from the pool rather than hand it out again.
          broken = true;
        }
        throw error instanceof Error && error.constructor !== Error && !(error instanceof loadPg(FEATURE).DatabaseError)
          ? error
          : fail(error);
      } finally {
        client.release(broken);
      }
    },
    close: () => (closed ??= pool.end()),
  };
}
