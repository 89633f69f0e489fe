import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresQueryTool } from '../../../src/tools/builtin/sql';
import { POSTGRES_RISKS, type PostgresRisk } from '../../../src/tools/builtin/sql/postgres-role-check';
import { ToolError } from '../../../src/tools/tool-error';
import { REVOKE_LOGICAL_EMIT, startTestPostgres, type TestPostgres } from '../../helpers/postgres';
import { toolContext } from '../../helpers/tool-context';

/**
 * What a query could do past the tool's rules before issue 43, against a real PostgreSQL: outlive
 * its deadline by switching statement_timeout off, write to the WAL through a rollback, and run
 * dblink through a superuser connection. The tests here run in order: the PUBLIC grant of
 * pg_logical_emit_message is revoked half-way, as the docs tell operators to.
 */
let server: TestPostgres;
const everyRisk = Object.keys(POSTGRES_RISKS) as PostgresRisk[];

async function refusal(tool: ReturnType<typeof createPostgresQueryTool>, sql: string): Promise<ToolError> {
  const error: unknown = await Promise.resolve(tool.execute({ sql }, toolContext())).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(ToolError.is(error), `expected a ToolError for ${sql}, got ${String(error)}`).toBe(true);
  expect((error as ToolError).retryable).toBe(false);
  return error as ToolError;
}

/** Backends of `role` running a statement right now, seen from a superuser connection. */
async function activeBackends(role: string): Promise<number> {
  const { rows } = await server.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = '${role}' AND state = 'active'`,
  );
  return rows[0]!.n;
}

/** The WAL position written to disk, after a checkpoint so every record so far is there. */
async function flushedLsn(): Promise<string> {
  await server.query('CHECKPOINT');
  return (await server.query<{ l: string }>('SELECT pg_current_wal_flush_lsn()::text AS l')).rows[0]!.l;
}

/** Logical-decoding messages in the WAL since `lsn`: what change-data-capture consumers receive. */
async function walMessagesSince(lsn: string): Promise<number> {
  const end = await flushedLsn();
  const { rows } = await server.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_get_wal_records_info('${lsn}', '${end}') WHERE resource_manager = 'LogicalMessage'`,
  );
  return rows[0]!.n;
}

async function tableExists(name: string): Promise<boolean> {
  return (await server.query(`SELECT 1 FROM pg_tables WHERE tablename = '${name}'`)).rowCount === 1;
}

beforeAll(async () => {
  server = await startTestPostgres();
  await server.query(`
    CREATE EXTENSION dblink;
    CREATE EXTENSION pg_walinspect;
    CREATE TABLE t (id int);
    INSERT INTO t VALUES (1);
    CREATE ROLE reader LOGIN;
    GRANT SELECT ON t TO reader;
    CREATE ROLE admin NOLOGIN SUPERUSER;
    CREATE ROLE switcher LOGIN NOINHERIT IN ROLE admin;
    CREATE ROLE signaller LOGIN IN ROLE pg_signal_backend;
    CREATE ROLE file_reader LOGIN IN ROLE pg_read_server_files;
  `);
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

describe('the PostgreSQL tool refuses roles that can act past a read-only transaction (issue 43, item 3)', () => {
  it('refuses the plain reader while PUBLIC may call pg_logical_emit_message and dblink, saying what to revoke; nothing reaches the WAL', async () => {
    const before = await flushedLsn();
    const error = await refusal(
      createPostgresQueryTool({ connection: server.urlFor('reader') }),
      "SELECT pg_logical_emit_message(false, 'cdc', 'leaked')",
    );
    expect(error.message).toMatch(/^The PostgreSQL role "reader" can do what a read-only query must not/);
    expect(error.message).toContain(
      'dblink — dblink: runs statements on its own connection, which commits; fix: REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA',
    );
    expect(error.message).toContain('logical-emit — pg_logical_emit_message: writes to the write-ahead log');
    expect(error.message).toContain("acceptRisks: ['dblink', 'logical-emit']");
    // pg_walinspect reads the WAL itself: the message a change-data-capture consumer would receive is not there...
    expect(await walMessagesSince(before)).toBe(0);
    // ...and would be, had the call run (the same check, seeing one).
    await server.query("SELECT pg_logical_emit_message(false, 'cdc', 'control')");
    expect(await walMessagesSince(before)).toBe(1);
  });

  it('refuses a superuser connection, so dblink_exec cannot create a table through it', async () => {
    const tool = createPostgresQueryTool({ connection: server.superuserUrl });
    const error = await refusal(
      tool,
      `SELECT dblink_exec('host=127.0.0.1 port=${server.port} dbname=postgres user=postgres', 'CREATE TABLE pwned (i int)')`,
    );
    expect(error.message).toMatch(
      /^The PostgreSQL role "postgres" .*superuser — SUPERUSER: every rule below, and more, is open to it; fix: connect as a role without SUPERUSER/,
    );
    expect(await tableExists('pwned')).toBe(false);
  });

  it('refuses a role that may switch to a superuser role (NOINHERIT membership), signal other sessions, or read server files', async () => {
    await server.query('REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC');
    await server.query(REVOKE_LOGICAL_EMIT);
    for (const [role, risk] of [
      ['switcher', 'superuser'],
      ['signaller', 'signal-backend'],
      ['file_reader', 'server-files'],
    ] as const) {
      const error = await refusal(createPostgresQueryTool({ connection: server.urlFor(role) }), 'SELECT 1');
      expect(error.message, role).toContain(`${risk} — `);
      expect(error.message, role).toMatch(new RegExp(`acceptRisks: \\[[^\\]]*'${risk}'`));
    }
  });

  it('runs as the reader once the grants are revoked as documented, and acceptRisks lets an operator accept a named risk', async () => {
    const reader = createPostgresQueryTool({ connection: server.urlFor('reader') });
    expect((await reader.execute({ sql: 'SELECT id FROM t' }, toolContext())).rows).toEqual([{ id: 1 }]);
    const signaller = createPostgresQueryTool({
      connection: server.urlFor('signaller'),
      acceptRisks: ['signal-backend'],
    });
    expect((await signaller.execute({ sql: 'SELECT 1 AS one' }, toolContext())).rows).toEqual([{ one: 1 }]);
    const superuser = createPostgresQueryTool({ connection: server.superuserUrl, acceptRisks: everyRisk });
    expect((await superuser.execute({ sql: 'SELECT 1 AS one' }, toolContext())).rows).toEqual([{ one: 1 }]);
  });
});

describe('the PostgreSQL tool enforces its deadline on the server (issue 43, item 2)', () => {
  // The first FETCH (rows 1-100) switches statement_timeout off for the rest of the transaction;
  // the second sleeps a minute with no server-side timeout left.
  const escape =
    "SELECT n, CASE WHEN n = 1 THEN set_config('statement_timeout', '0', true) WHEN n = 150 THEN pg_sleep(60)::text END AS x FROM generate_series(1, 300) AS n";

  it('a query that turns statement_timeout off is stopped at the deadline and its backend is gone when the call returns, call after call', async () => {
    const tool = createPostgresQueryTool({
      connection: server.urlFor('reader'),
      statementTimeoutMs: 1_000,
      maxRows: 1_000,
    });
    for (let call = 0; call < 5; call++) {
      const error = await refusal(tool, escape);
      expect(error.message).toMatch(
        /^The query ran past its time limit of 1000 ms; PostgreSQL (cancelled it|terminated its backend) \(pid \d+\), and it no longer runs\.$/,
      );
      expect(await activeBackends('reader')).toBe(0);
    }
    expect((await tool.execute({ sql: 'SELECT count(*)::int AS n FROM t' }, toolContext())).rows).toEqual([{ n: 1 }]);
  }, 120_000);

  it('a backend that ignores the cancel request is terminated, and checked gone', async () => {
    // A function that catches query_canceled and goes on sleeping: only pg_terminate_backend ends it.
    await server.query(`CREATE FUNCTION stubborn() RETURNS int LANGUAGE plpgsql AS $$
      BEGIN
        LOOP
          BEGIN PERFORM pg_sleep(60); EXCEPTION WHEN query_canceled THEN NULL; END;
        END LOOP;
      END $$;
      GRANT EXECUTE ON FUNCTION stubborn() TO reader;`);
    const tool = createPostgresQueryTool({ connection: server.urlFor('reader'), statementTimeoutMs: 1_000 });
    const error = await refusal(tool, "SELECT set_config('statement_timeout', '0', true), stubborn()");
    expect(error.message).toMatch(
      /^The query ran past its time limit of 1000 ms; PostgreSQL terminated its backend \(pid \d+\), and it no longer runs\.$/,
    );
    expect(await activeBackends('reader')).toBe(0);
  }, 60_000);
});
