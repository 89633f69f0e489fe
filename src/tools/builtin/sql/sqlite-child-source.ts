/** Marks the query processes in `ps`, so an operator (and a test) can tell them apart. */
export const SQLITE_CHILD_MARKER = 'thoughtline-sqlite-query';

/**
 * The program a SQLite query runs in: plain JavaScript for `node -e`, so it runs the same from
 * src/ and dist/. It uses Node's own `node:sqlite` (nothing to compile). It gets one job over IPC,
 * opens the file read-only with `query_only`, compiles the statement and, when asked, `EXPLAIN`s it
 * (compiling is not running: no program runs before the parent has read it), and sends what SQLite
 * compiled. Only on the parent's `run` does it read rows, until one past the row cap or past the
 * byte cap, answer, and exit. The parent owns the deadline: it kills this process, the only way to
 * stop SQLite inside a native call. `job.off` names layers a test switched off (sqlite-layers.ts).
 */
export const SQLITE_CHILD_SOURCE = String.raw`
const approxBytes = (row) => { try { return JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v)).length; } catch { return 0; } };
const messageOf = (error) => String((error && error.message) || error);
const answer = (message) => process.send(message, () => process.exit(0));
// Integers as bigints, so none is refused as too large; those a number holds exactly go back to numbers.
const exact = (v) => (typeof v === 'bigint' && v >= Number.MIN_SAFE_INTEGER && v <= Number.MAX_SAFE_INTEGER ? Number(v) : v);
// Node 22 warns once, on stderr, that node:sqlite is experimental: that warning alone is dropped.
const loadSqlite = () => {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning, ...rest) {
    const text = typeof warning === 'string' ? warning : warning && warning.message;
    if (String(text).startsWith('SQLite is an experimental feature')) return;
    return emitWarning.call(this, warning, ...rest);
  };
  try { return process.getBuiltinModule('node:sqlite'); } finally { process.emitWarning = emitWarning; }
};
process.once('message', (job) => {
  let db;
  try {
    const { DatabaseSync } = loadSqlite();
    try {
      // readOnly never creates a missing file; extensions stay off (load_extension is refused).
      db = new DatabaseSync(job.file, { readOnly: !job.off.includes('read-only-open'), allowExtension: false });
    } catch (error) {
      return answer({ kind: 'open', message: messageOf(error) });
    }
    if (!job.off.includes('query-only')) db.exec('PRAGMA query_only = ON');
    const statement = db.prepare(job.sql);
    const program = job.explain
      ? db.prepare('EXPLAIN ' + statement.sourceSQL).all().map((op) => ({ opcode: op.opcode, p1: op.p1, p2: op.p2, p3: op.p3 }))
      : [];
    process.once('message', () => {
      try {
        statement.setReadBigInts(true);
        const rows = [];
        let bytes = 0;
        for (const raw of statement.iterate(...job.params)) {
          const row = Object.create(null);
          for (const [key, value] of Object.entries(raw)) row[key] = exact(value);
          rows.push(row);
          bytes += approxBytes(row);
          if (rows.length > job.maxRows || bytes > job.maxBytes) break;
        }
        // columns() came in Node 22.16; before it, the first row's keys (none without a row).
        const columns = typeof statement.columns === 'function' ? statement.columns().map((c) => c.name) : Object.keys(rows[0] || {});
        answer({ kind: 'rows', columns, rows });
      } catch (error) {
        answer({ kind: 'refused', message: messageOf(error) });
      } finally {
        try { db.close(); } catch {}
      }
    });
    process.send({ kind: 'compiled', sourceSQL: statement.sourceSQL, program });
  } catch (error) {
    try { if (db) db.close(); } catch {}
    answer({ kind: 'refused', message: messageOf(error) });
  }
});
`;
