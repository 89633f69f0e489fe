/** Marks the query processes in `ps`, so an operator (and a test) can tell them apart. */
export const SQLITE_CHILD_MARKER = 'thoughtline-sqlite-query';

/**
 * The program a SQLite query runs in: plain JavaScript for `node -e`, so it runs the same from
 * src/ and dist/. It gets one job over IPC, opens the file read-only with `query_only`, runs the
 * one statement only if SQLite reports it as reading and writing nothing, reads rows until one past
 * the row cap or past the byte cap, answers, and exits. The parent owns the deadline: it kills this
 * process, which is the only way to stop SQLite inside a native call.
 */
export const SQLITE_CHILD_SOURCE = String.raw`
const approxBytes = (row) => { try { return JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v)).length; } catch { return 0; } };
const answer = (message) => process.send(message, () => process.exit(0));
process.once('message', (job) => {
  let db;
  try {
    const Database = require(job.module);
    try {
      db = new Database(job.file, { readonly: true, fileMustExist: true });
    } catch (error) {
      return answer({ kind: 'open', message: String((error && error.message) || error) });
    }
    db.pragma('query_only = ON');
    const statement = db.prepare(job.sql);
    if (!statement.reader || !statement.readonly) return answer({ kind: 'not-read-only' });
    const columns = statement.columns().map((column) => column.name);
    const rows = [];
    let bytes = 0;
    for (const row of statement.iterate(...job.params)) {
      rows.push(row);
      bytes += approxBytes(row);
      if (rows.length > job.maxRows || bytes > job.maxBytes) break;
    }
    answer({ kind: 'rows', columns, rows });
  } catch (error) {
    answer({ kind: 'refused', message: String((error && error.message) || error) });
  } finally {
    try { if (db) db.close(); } catch {}
  }
});
`;
