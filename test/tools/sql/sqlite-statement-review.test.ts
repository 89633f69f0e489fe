import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewSqliteProgram, type SqliteInstruction } from '../../../src/tools/builtin/sql/review-sqlite-program';
import { textAfterStatement } from '../../../src/tools/builtin/sql/text-after-statement';
import { openSqlite } from '../../helpers/sqlite-file';

/**
 * The SQLite tool's two checks of a compiled statement, on what this Node's SQLite compiles: the
 * bytecode allow-list (every read below passes, every write is refused) and the one-statement rule.
 */
let dir: string;
let file: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-sqlite-review-'));
  file = path.join(dir, 'shop.db');
  const db = openSqlite(file);
  db.exec(`
    CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n REAL, b BLOB);
    CREATE TABLE u (id INTEGER PRIMARY KEY, t_id INTEGER REFERENCES t(id), v TEXT);
    CREATE INDEX u_t ON u (t_id);
    CREATE UNIQUE INDEX t_name ON t (name);
    CREATE TABLE k (a TEXT, b TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID;
    CREATE VIEW tv AS SELECT t.name, count(u.id) AS c FROM t LEFT JOIN u ON u.t_id = t.id GROUP BY t.name;
    CREATE TABLE j (doc TEXT);
  `);
  db.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What `sql` compiles to, on a read-only connection of its own (a PRAGMA may change one as it compiles). */
function compiled(sql: string): SqliteInstruction[] {
  const db = openSqlite(file, { readOnly: true });
  try {
    return (db.prepare(`EXPLAIN ${sql}`).all() as SqliteInstruction[]).map(({ opcode, p1, p2, p3 }) => ({
      opcode,
      p1,
      p2,
      p3,
    }));
  } finally {
    db.close();
  }
}

const reads = [
  'SELECT 1',
  'SELECT id, name FROM t WHERE id >= ? ORDER BY id',
  'SELECT * FROM t WHERE id IN (1, 2, 3) OR name = ?',
  'SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.t_id = t.id) AND n > (SELECT avg(n) FROM t)',
  'SELECT t.name, u.v FROM t JOIN u ON u.t_id = t.id',
  'SELECT * FROM t LEFT JOIN u ON u.t_id = t.id',
  'SELECT * FROM t FULL JOIN u ON u.t_id = t.id',
  'SELECT a.id FROM t a JOIN t b ON a.n = b.n',
  'SELECT name, count(*) FROM t GROUP BY name HAVING count(*) > 1 ORDER BY count(*) DESC',
  'SELECT DISTINCT name FROM t',
  'SELECT count(DISTINCT name), total(n), min(n), max(n), group_concat(name) FROM t',
  'SELECT sum(n) FILTER (WHERE id > 1) FROM t',
  'SELECT name FROM t UNION SELECT v FROM u',
  'SELECT name FROM t INTERSECT SELECT v FROM u',
  'SELECT name FROM t EXCEPT SELECT v FROM u',
  'SELECT * FROM t ORDER BY n DESC LIMIT 10 OFFSET 5',
  'SELECT * FROM (SELECT * FROM t ORDER BY n LIMIT 3) ORDER BY id',
  'WITH x AS MATERIALIZED (SELECT * FROM t) SELECT * FROM x a, x b',
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 10) SELECT x FROM c',
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT x + 1 FROM c WHERE x < 10) SELECT x FROM c',
  'SELECT id, row_number() OVER (ORDER BY id), rank() OVER w, lag(n) OVER w, ntile(2) OVER w FROM t WINDOW w AS (ORDER BY n)',
  'SELECT sum(n) OVER (PARTITION BY name ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t',
  'SELECT count(*) OVER (ORDER BY n GROUPS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES) FROM t',
  'SELECT * FROM tv',
  'SELECT * FROM k WHERE a = ? AND b > ?',
  "SELECT json_extract(doc, '$.a'), value FROM j, json_each(j.doc)",
  "SELECT * FROM pragma_table_info('t')",
  'VALUES (1, 2), (3, 4)',
  'SELECT name, type FROM sqlite_schema',
  'PRAGMA table_info(t)',
  'PRAGMA index_list(t)',
  'PRAGMA query_only',
  'PRAGMA user_version',
  'PRAGMA integrity_check',
];

const writes = [
  "INSERT INTO t (name) VALUES ('z')",
  "INSERT INTO t (name) VALUES ('z') RETURNING id",
  "REPLACE INTO t (id, name) VALUES (1, 'z')",
  "INSERT INTO t (id, name) VALUES (1, 'z') ON CONFLICT (id) DO UPDATE SET name = excluded.name",
  "UPDATE t SET name = 'z' RETURNING *",
  'DELETE FROM t RETURNING *',
  'CREATE TABLE t2 AS SELECT * FROM t',
  'CREATE TEMP TABLE scratch (x)',
  'CREATE INDEX t_n ON t (n)',
  'CREATE VIEW v2 AS SELECT 1',
  'CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM u; END',
  'DROP TABLE u',
  'ALTER TABLE t ADD COLUMN extra TEXT',
  'VACUUM',
  "VACUUM INTO 'PLACEHOLDER/copy.db'",
  "ATTACH DATABASE 'PLACEHOLDER/other.db' AS other",
  'DETACH DATABASE main',
  'BEGIN IMMEDIATE',
  'COMMIT',
  'SAVEPOINT s',
  'ANALYZE',
  'REINDEX',
  'PRAGMA query_only = OFF',
  'PRAGMA writable_schema = ON',
  'PRAGMA user_version = 7',
  'PRAGMA journal_mode = WAL',
  'PRAGMA wal_checkpoint',
  'PRAGMA optimize',
  'PRAGMA incremental_vacuum',
  'PRAGMA foreign_keys = OFF',
];

describe('the SQLite tool runs only what compiles to reads (reviewSqliteProgram)', () => {
  it.each(reads)('allows %s', (sql) => {
    expect(reviewSqliteProgram(compiled(sql))).toBeUndefined();
  });

  it.each(writes)('refuses %s', (sql) => {
    expect(reviewSqliteProgram(compiled(sql.replace('PLACEHOLDER', dir)))).toMatch(/compiles it to|returns no rows/);
  });

  it('EXPLAIN only compiles: VACUUM INTO and ATTACH create no file', () => {
    compiled(`VACUUM INTO '${dir}/copy.db'`);
    compiled(`ATTACH DATABASE '${dir}/other.db' AS other`);
    expect(fs.readdirSync(dir)).toEqual(['shop.db']);
  });

  it('refuses a write opcode, a write transaction and a write through a table cursor, by their operands', () => {
    const op = (opcode: string, p1 = 0, p2 = 0, p3 = 0): SqliteInstruction => ({ opcode, p1, p2, p3 });
    const read = [op('Init'), op('Transaction'), op('OpenRead', 1), op('Rewind', 1), op('ResultRow'), op('Halt')];
    expect(reviewSqliteProgram(read)).toBeUndefined();
    expect(reviewSqliteProgram([...read, op('Transaction', 0, 1)])).toMatch(/Transaction \(0, 1, 0\)/);
    expect(reviewSqliteProgram([...read, op('Insert', 1)])).toMatch(/Insert/);
    expect(reviewSqliteProgram([...read, op('OpenEphemeral', 2), op('Insert', 2)])).toBeUndefined();
    // A cursor opened on a table and as scratch is a table's: no write through it.
    expect(reviewSqliteProgram([...read, op('OpenEphemeral', 1), op('Insert', 1)])).toMatch(/Insert/);
    expect(reviewSqliteProgram([...read, op('Expire', 0, 0)])).toMatch(/Expire/);
    expect(reviewSqliteProgram([...read, op('Expire', 1, 1)])).toBeUndefined();
    expect(reviewSqliteProgram([...read, op('SomeOpcodeOfALaterSqlite')])).toMatch(/SomeOpcodeOfALaterSqlite/);
    expect(reviewSqliteProgram(read.filter((o) => o.opcode !== 'ResultRow'))).toBe('it returns no rows');
  });
});

describe('the SQLite tool runs one statement (textAfterStatement)', () => {
  /** What `prepare` compiles of `sql`: its `sourceSQL`. */
  const source = (sql: string): string => {
    const db = openSqlite(file, { readOnly: true });
    try {
      return db.prepare(sql).sourceSQL;
    } finally {
      db.close();
    }
  };

  it.each([
    ['SELECT 1 -- x', ''],
    ['SELECT 1; /* c */', ''],
    ['SELECT 1; -- a\n /* b */ \n', ''],
    ['/* lead */ SELECT 1 /* unclosed', ''],
    ['SELECT 1; DELETE FROM t', 'DELETE FROM t'],
    ['SELECT 1; -- a\nDELETE FROM t', 'DELETE FROM t'],
    ['SELECT 1;;', ';'],
    ["SELECT '--'; x", 'x'],
  ])('%j leaves %j after its statement', (sql, after) => {
    expect(textAfterStatement(sql, source(sql))).toBe(after);
  });

  it('returns the whole text when it does not begin with what SQLite compiled', () => {
    expect(textAfterStatement('SELECT 1', 'SELECT 2')).toBe('SELECT 1');
  });
});
