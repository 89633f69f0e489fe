import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteQueryTool } from '../../../src/tools/builtin/sql';
import { ToolError } from '../../../src/tools/tool-error';
import { openSqlite } from '../../helpers/sqlite-file';
import { toolContext } from '../../helpers/tool-context';

let dir: string;
let file: string;

/** What the database holds, read through a separate read-write connection. */
function snapshot(): { tables: string[]; counts: Record<string, number>; files: string[] } {
  const db = openSqlite(file);
  try {
    const tables = (
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as { name: string }[]
    ).map((row) => row.name);
    const counts = Object.fromEntries(
      tables.map((name) => [name, (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n]),
    );
    return { tables, counts, files: fs.readdirSync(dir).sort() };
  } finally {
    db.close();
  }
}

async function refusal(run: () => unknown): Promise<ToolError> {
  const error: unknown = await Promise.resolve()
    .then(run)
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(ToolError.is(error), `expected a ToolError, got ${String(error)}`).toBe(true);
  const toolError = error as ToolError;
  expect(toolError.retryable).toBe(false);
  return toolError;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-sqlite-'));
  file = path.join(dir, 'shop.db');
  const db = openSqlite(file);
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('a'), ('b'), ('c');");
  db.exec('CREATE TABLE big (n INTEGER, pad TEXT)');
  const insert = db.prepare('INSERT INTO big VALUES (?, ?)');
  db.exec('BEGIN');
  for (let n = 1; n <= 500; n++) insert.run(n, 'x'.repeat(100));
  db.exec('COMMIT');
  db.close();
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('createSqliteQueryTool', () => {
  it('is a read-only database tool that needs no approval and shows its query', () => {
    const tool = createSqliteQueryTool({ file: '/nowhere.db' });
    expect(tool).toMatchObject({
      name: 'sql_query',
      type: 'database',
      effects: 'none',
      approval: 'never',
      summaryTemplate: 'SQL: {sql}',
    });
  });

  it('returns rows and columns, with ? parameters', async () => {
    const tool = createSqliteQueryTool({ file });
    const result = await tool.execute(
      { sql: 'SELECT id, name FROM t WHERE id >= ? ORDER BY id', params: [2] },
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
    const result = await createSqliteQueryTool({ file }).execute(
      { sql: 'SELECT count(*) AS n FROM t; -- how many' },
      toolContext(),
    );
    expect(result.rows).toEqual([{ n: 3 }]);
  });

  const attacks: Array<[string, string]> = [
    ['a DELETE inside a CTE', 'WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d'],
    ['DELETE … RETURNING', 'DELETE FROM t RETURNING *'],
    ['CREATE TABLE AS', 'CREATE TABLE t2 AS SELECT * FROM t'],
    ['stacked statements', 'SELECT 1; DELETE FROM t'],
    ['ATTACH DATABASE', `ATTACH DATABASE '${'PLACEHOLDER'}' AS other`],
    // An existing file opens (read-only): only the bytecode check refuses it.
    ['ATTACH DATABASE of an existing file', `ATTACH DATABASE '${'SELF'}' AS other`],
    ['PRAGMA query_only = OFF', 'PRAGMA query_only = OFF'],
    ['VACUUM INTO', `VACUUM INTO '${'PLACEHOLDER'}'`],
    ['a plain write', "INSERT INTO t (name) VALUES ('z')"],
    ['DROP TABLE', 'DROP TABLE t'],
    ['load_extension', "SELECT load_extension('/usr/lib/x86_64-linux-gnu/libsqlite3.so.0')"],
    ['query_only off through the pragma table function', "SELECT * FROM pragma_query_only('OFF')"],
  ];

  for (const [label, sqlTemplate] of attacks) {
    it(`refuses ${label} and changes nothing`, async () => {
      const sql = sqlTemplate.replace('PLACEHOLDER', path.join(dir, 'copy.db')).replace('SELF', file);
      const before = snapshot();
      const error = await refusal(() => createSqliteQueryTool({ file }).execute({ sql }, toolContext()));
      expect(error.message).toMatch(/SQLite|read-only/);
      expect(snapshot()).toEqual(before);
    });
  }

  it('returns integers past 2^53 as strings, binds booleans as 1 and 0, and keeps a column named __proto__', async () => {
    const result = await createSqliteQueryTool({ file }).execute(
      {
        sql: `SELECT 9007199254740993 AS big, 42 AS small, ? AS yes, ? AS no, 'p' AS "__proto__"`,
        params: [true, false],
      },
      toolContext(),
    );
    expect(Object.entries(result.rows[0]!)).toEqual([
      ['big', '9007199254740993'],
      ['small', 42],
      ['yes', 1],
      ['no', 0],
      ['__proto__', 'p'],
    ]);
  });

  it('keeps query_only on even after a query reads the pragma', async () => {
    const tool = createSqliteQueryTool({ file });
    const result = await tool.execute({ sql: 'PRAGMA query_only' }, toolContext());
    expect(result.rows).toEqual([{ query_only: 1 }]);
  });

  it('stops at the row cap and says so', async () => {
    const tool = createSqliteQueryTool({ file, maxRows: 10 });
    const capped = await tool.execute({ sql: 'SELECT n FROM big ORDER BY n' }, toolContext());
    expect(capped).toMatchObject({ rowCount: 10, truncated: 'max_rows' });
    const exact = await tool.execute({ sql: 'SELECT n FROM big WHERE n <= 10' }, toolContext());
    expect(exact.rowCount).toBe(10);
    expect(exact.truncated).toBeUndefined();
  });

  it('stops at the byte cap and says so', async () => {
    const tool = createSqliteQueryTool({ file, maxBytes: 2_000 });
    const result = await tool.execute({ sql: 'SELECT n, pad FROM big ORDER BY n' }, toolContext());
    expect(result.truncated).toBe('max_bytes');
    expect(Buffer.byteLength(JSON.stringify(result.rows))).toBeLessThanOrEqual(2_000);
    expect(result.rowCount).toBeGreaterThan(10);
  });

  it('refuses a missing file without creating it', async () => {
    const missing = path.join(dir, 'missing.db');
    const error = await refusal(() =>
      createSqliteQueryTool({ file: missing }).execute({ sql: 'SELECT 1' }, toolContext()),
    );
    expect(error.message).toMatch(/Cannot open the SQLite database/);
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('refuses caps out of range when the tool is defined', () => {
    expect(() => createSqliteQueryTool({ file, maxRows: 0 })).toThrow(/maxRows/);
    expect(() => createSqliteQueryTool({ file, maxBytes: 17 * 1024 * 1024 })).toThrow(/maxBytes/);
  });

  it('refuses a query longer than the input limit before it runs', () => {
    const tool = createSqliteQueryTool({ file });
    expect(tool.input.safeParse({ sql: `SELECT '${'x'.repeat(20_000)}'` }).success).toBe(false);
    expect(tool.input.safeParse({ sql: 'SELECT 1', params: Array(101).fill(1) }).success).toBe(false);
    expect(tool.input.safeParse({ sql: 'SELECT 1', params: Array(100).fill(1) }).success).toBe(true);
  });
});
