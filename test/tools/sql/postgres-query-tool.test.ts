import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresQueryTool } from '../../../src/tools/builtin/sql';
import { ToolError } from '../../../src/tools/tool-error';
import { POSTGRES_RISKS, type PostgresRisk } from '../../../src/tools/builtin/sql/postgres-role-check';
import { REVOKE_LOGICAL_EMIT, startTestPostgres, type TestPostgres } from '../../helpers/postgres';
import { toolContext } from '../../helpers/tool-context';

const ALL_RISKS = Object.keys(POSTGRES_RISKS) as PostgresRisk[];
let server: TestPostgres;
/** The role the docs recommend: LOGIN, SELECT on the tables, nothing else. */
let reader: ReturnType<typeof createPostgresQueryTool>;
/** The same tool as the superuser: the read-only transaction, not the grants, must stop writes. */
let superuser: ReturnType<typeof createPostgresQueryTool>;
const tools: Array<ReturnType<typeof createPostgresQueryTool>> = [];

/** What the database holds, read through a separate read-write superuser connection. */
async function snapshot(): Promise<{
  tables: string[];
  counts: Record<string, number>;
  readOnlyDefault: string;
  roles: string[];
  largeObjects: number;
}> {
  const tables = (
    await server.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
  ).rows.map((row) => row.tablename);
  const counts: Record<string, number> = {};
  for (const table of tables)
    counts[table] = Number((await server.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}"`)).rows[0]!.n);
  const readOnlyDefault = (
    await server.query<{ v: string }>(
      "SELECT coalesce(array_to_string(setconfig, ','), '') AS v FROM pg_roles r LEFT JOIN pg_db_role_setting s ON s.setrole = r.oid WHERE rolname = 'reader'",
    )
  ).rows[0]!.v;
  const roles = (
    await server.query<{ rolname: string }>("SELECT rolname FROM pg_roles WHERE rolname NOT LIKE 'pg\\_%' ORDER BY 1")
  ).rows.map((row) => row.rolname);
  const largeObjects = Number(
    (await server.query<{ n: string }>('SELECT count(*) AS n FROM pg_largeobject_metadata')).rows[0]!.n,
  );
  return { tables, counts, readOnlyDefault, roles, largeObjects };
}

async function refusal(
  tool: ReturnType<typeof createPostgresQueryTool>,
  sql: string,
  params?: unknown[],
): Promise<ToolError> {
  const error: unknown = await Promise.resolve(
    tool.execute({ sql, ...(params ? { params: params as string[] } : {}) }, toolContext()),
  ).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(ToolError.is(error), `expected a ToolError for ${sql}, got ${String(error)}`).toBe(true);
  expect((error as ToolError).retryable).toBe(false);
  return error as ToolError;
}

beforeAll(async () => {
  try {
    server = await startTestPostgres();
  } catch (error) {
    throw new Error(
      `PostgreSQL could not start for the sql tool tests (scripts/ensure-postgres.sh installs it as root): ${String(error)}`,
    );
  }
  await server.query(`
    CREATE TABLE t (id int PRIMARY KEY, name text);
    INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');
    CREATE TABLE big AS SELECT n, repeat('x', 100) AS pad FROM generate_series(1, 1000) AS n;
    CREATE ROLE reader LOGIN;
    GRANT SELECT ON t, big TO reader;
  `);
  await server.query(REVOKE_LOGICAL_EMIT);
  reader = createPostgresQueryTool({ connection: server.urlFor('reader'), statementTimeoutMs: 1_000 });
  // Every risk accepted knowingly: these tests show what the read-only transaction alone stops.
  superuser = createPostgresQueryTool({
    connection: server.superuserUrl,
    statementTimeoutMs: 1_000,
    acceptRisks: ALL_RISKS,
  });
  tools.push(reader, superuser);
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

describe('createPostgresQueryTool', () => {
  it('is a read-only database tool that needs no approval and shows its query', () => {
    expect(reader).toMatchObject({
      name: 'sql_query',
      type: 'database',
      effects: 'none',
      approval: 'never',
      summaryTemplate: 'SQL: {sql}',
    });
  });

  it('returns rows and columns, with $n parameters', async () => {
    const result = await reader.execute(
      { sql: 'SELECT id, name FROM t WHERE id >= $1 ORDER BY id', params: [2] },
      toolContext(),
    );
    expect(result).toEqual({
      columns: ['id', 'name'],
      rows: [
        { id: 2, name: 'b' },
        { id: 3, name: 'c' },
      ],
      rowCount: 2,
    });
  });

  it('accepts the trailing semicolon and comment models often write', async () => {
    const result = await reader.execute({ sql: 'SELECT count(*)::int AS n FROM t; -- how many' }, toolContext());
    expect(result.rows).toEqual([{ n: 3 }]);
  });

  const attacks: Array<[string, string]> = [
    ['a DELETE inside a CTE', 'WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d'],
    ['SELECT INTO', 'SELECT * INTO t2 FROM t'],
    ['stacked statements', 'SELECT 1; DELETE FROM t'],
    ['COMMIT then DELETE', 'COMMIT; DELETE FROM t'],
    ['COPY TO PROGRAM', "COPY t TO PROGRAM 'touch /tmp/thoughtline-pwned'"],
    ['COPY FROM', "COPY t FROM '/etc/hostname'"],
    ['a DO block', 'DO $$ BEGIN DELETE FROM t; END $$'],
    [
      'turning read-only off for later transactions',
      "SELECT set_config('default_transaction_read_only', 'off', false), set_config('transaction_read_only', 'off', false)",
    ],
    ['turning the transaction read-write', "SELECT set_config('transaction_read_only', 'off', true)"],
    ['ALTER ROLE', 'ALTER ROLE reader SET default_transaction_read_only = off'],
    ['SELECT FOR UPDATE', 'SELECT * FROM t FOR UPDATE'],
    ['a sequence bump', "SELECT nextval('pg_catalog.pg_class_oid_index')"],
  ];

  for (const [label, sql] of attacks) {
    it(`refuses ${label} as the reader role and as the superuser, changing nothing`, async () => {
      const before = await snapshot();
      for (const tool of tools) {
        const error = await refusal(tool, sql);
        expect(error.message).toMatch(/^PostgreSQL refused the query: /);
      }
      expect(await snapshot()).toEqual(before);
    });
  }

  it('refuses a DELETE inside a CTE because the transaction is read-only', async () => {
    const error = await refusal(superuser, 'WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d');
    expect(error.message).toMatch(/read-only transaction|cursor/);
  });

  it('rolls back what a read-only transaction still allows (large objects), and refuses server files to the reader', async () => {
    const before = await snapshot();
    // PostgreSQL lets lo_create run in a read-only transaction; the rollback undoes it.
    const created = await superuser.execute({ sql: 'SELECT lo_create(0) AS oid' }, toolContext());
    expect(created.rowCount).toBe(1);
    const error = await refusal(reader, "SELECT lo_import('/etc/hostname')");
    expect(error.message).toMatch(/permission denied/);
    expect(await snapshot()).toEqual(before);
  });

  it('leaves no session state on a pooled connection: advisory locks are released', async () => {
    const tool = createPostgresQueryTool({ connection: { connectionString: server.urlFor('reader'), max: 1 } });
    await tool.execute({ sql: 'SELECT pg_advisory_lock(42)' }, toolContext());
    const held = await tool.execute(
      { sql: "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'" },
      toolContext(),
    );
    expect(held.rows).toEqual([{ n: 0 }]);
  });

  it('ends a query that kills its own connection as a refusal, and the next call works', async () => {
    const before = await snapshot();
    const error: unknown = await Promise.resolve(
      reader.execute({ sql: 'SELECT pg_terminate_backend(pg_backend_pid())' }, toolContext()),
    ).catch((caught: unknown) => caught);
    expect(ToolError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/PostgreSQL|terminat|Connection/i);
    expect((await reader.execute({ sql: 'SELECT count(*)::int AS n FROM t' }, toolContext())).rows).toEqual([{ n: 3 }]);
    expect(await snapshot()).toEqual(before);
  });

  it('stops a long query at the statement timeout, without a hang', async () => {
    const before = await snapshot();
    const started = Date.now();
    const error = await refusal(reader, 'SELECT pg_sleep(30)');
    expect(error.message).toMatch(/statement timeout/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await snapshot()).toEqual(before);
  });

  it('bounds the whole read, not only each statement: slow rows across batches end at the time limit', async () => {
    const tool = createPostgresQueryTool({
      connection: server.urlFor('reader'),
      statementTimeoutMs: 1_000,
      maxRows: 1_000,
    });
    const started = Date.now();
    // Each batch of 100 rows sleeps 0.5 s: under the statement timeout, over the total after three batches.
    const error = await refusal(
      tool,
      'SELECT n, CASE WHEN n % 100 = 0 THEN pg_sleep(0.5) END AS pause FROM big ORDER BY n',
    );
    expect(error.message).toMatch(/time limit of 1000 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses server files to the reader role', async () => {
    const error = await refusal(reader, "SELECT pg_read_file('/etc/hostname')");
    expect(error.message).toMatch(/permission denied/);
  });

  it('stops at the row cap and says so, and not at exactly the cap', async () => {
    const tool = createPostgresQueryTool({ connection: server.urlFor('reader'), maxRows: 150 });
    const capped = await tool.execute({ sql: 'SELECT n FROM big ORDER BY n' }, toolContext());
    expect(capped).toMatchObject({ rowCount: 150, truncated: 'max_rows' });
    expect(capped.rows.at(-1)).toEqual({ n: 150 });
    const exact = await tool.execute({ sql: 'SELECT n FROM big WHERE n <= 150' }, toolContext());
    expect(exact.rowCount).toBe(150);
    expect(exact.truncated).toBeUndefined();
  });

  it('stops at the byte cap and says so', async () => {
    const tool = createPostgresQueryTool({ connection: server.urlFor('reader'), maxBytes: 5_000 });
    const result = await tool.execute({ sql: 'SELECT n, pad FROM big ORDER BY n' }, toolContext());
    expect(result.truncated).toBe('max_bytes');
    expect(Buffer.byteLength(JSON.stringify(result.rows))).toBeLessThanOrEqual(5_000);
    expect(result.rowCount).toBeGreaterThan(20);
  });

  it('refuses a table the role has no grant on', async () => {
    await server.query('CREATE TABLE secret (v text)');
    try {
      const error = await refusal(reader, 'SELECT * FROM secret');
      expect(error.message).toMatch(/permission denied/);
    } finally {
      await server.query('DROP TABLE secret');
    }
  });

  it('leaves a pooled connection read-write-clean: the next session of the role is as before', async () => {
    await refusal(reader, "SELECT set_config('default_transaction_read_only', 'off', false), 1/0");
    const client = new pg.Client({ connectionString: server.urlFor('reader') });
    await client.connect();
    try {
      expect((await client.query('SHOW default_transaction_read_only')).rows).toEqual([
        { default_transaction_read_only: 'off' },
      ]);
    } finally {
      await client.end();
    }
  });
});
