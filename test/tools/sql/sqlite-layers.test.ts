import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSqliteQuery, type SqliteAnswer } from '../../../src/tools/builtin/sql/run-sqlite-query';
import { SQLITE_LAYERS, type SqliteLayer } from '../../../src/tools/builtin/sql/sqlite-layers';
import { openSqlite } from '../../helpers/sqlite-file';
import { toolContext } from '../../helpers/tool-context';

/**
 * Each of the SQLite tool's layers on its own: a query that gets through with every layer off and
 * is stopped by that one layer alone. The fifth, the kill at the deadline, is sqlite-deadline.test.ts.
 */
let dir: string;
let file: string;
const tested = new Set<SqliteLayer>();

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-sqlite-layers-'));
  file = path.join(dir, 'shop.db');
  const db = openSqlite(file);
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('a'), ('b'), ('c');");
  db.close();
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const rowsOf = (sql: string): number => {
  const db = openSqlite(file, { readOnly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

/** Runs `sql` with only `on` of the switchable layers on. */
const query = (sql: string, on: SqliteLayer[]): Promise<SqliteAnswer> =>
  runSqliteQuery({ file, sql, params: [], maxRows: 10, maxBytes: 10_000 }, 10_000, toolContext(), {
    off: SQLITE_LAYERS.filter((layer) => !on.includes(layer)),
  });

describe("the SQLite tool's layers, each on its own (issue 80)", () => {
  for (const layer of ['read-only-open', 'query-only'] as const) {
    it(`${layer} alone refuses a write`, async () => {
      tested.add(layer);
      const insert = "INSERT INTO t (name) VALUES ('z')";
      expect(await query(insert, [layer])).toEqual({
        kind: 'refused',
        message: 'attempt to write a readonly database',
      });
      expect(rowsOf('SELECT count(*) AS n FROM t')).toBe(3);
      // The control: every layer off, the same write goes through.
      expect(await query(insert, [])).toEqual({ kind: 'rows', columns: [], rows: [] });
      expect(rowsOf('SELECT count(*) AS n FROM t')).toBe(4);
    });
  }

  it('the read-only program alone refuses VACUUM INTO, which the read-only open and query_only let write a file', async () => {
    tested.add('read-only-program');
    const copy = path.join(dir, 'copy.db');
    const vacuum = `VACUUM INTO '${copy}'`;
    expect(await query(vacuum, ['read-only-program'])).toEqual({
      kind: 'not-read-only',
      reason: expect.stringMatching(/^SQLite compiles it to Vacuum/),
    });
    expect(fs.existsSync(copy)).toBe(false);
    // Without it, the database's own layers let the statement create the file (node:sqlite's gap).
    await query(vacuum, ['read-only-open', 'query-only', 'one-statement']);
    expect(fs.existsSync(copy)).toBe(true);
  });

  it('the one-statement check alone refuses a query that goes on after its first statement', async () => {
    tested.add('one-statement');
    const stacked = 'SELECT 1 AS one; DELETE FROM t';
    expect(await query(stacked, ['one-statement'])).toEqual({
      kind: 'not-one-statement',
      compiled: 'SELECT 1 AS one;',
    });
    // Without it, SQLite compiles the first statement alone and answers as if that were the query.
    expect(await query(stacked, [])).toEqual({ kind: 'rows', columns: ['one'], rows: [{ one: 1 }] });
    expect(rowsOf('SELECT count(*) AS n FROM t')).toBe(3);
  });

  it('every switchable layer has its test', () => {
    expect([...tested].sort()).toEqual([...SQLITE_LAYERS].sort());
  });
});
