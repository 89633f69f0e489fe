/** SQLite's whitespace (tokenize.c): any other character starts a token. */
const SPACE = new Set([' ', '\t', '\n', '\f', '\r']);

/**
 * What follows the one statement SQLite compiled, from its first token on, or '' when only
 * whitespace and comments (`-- …`, `/* … *\/`, an unclosed one running to the end) follow.
 * `compiled` is the prepared statement's `sourceSQL`: `prepare` compiles the first statement and
 * drops the rest, so `SELECT 1; DELETE FROM t` would answer as `SELECT 1`. Text that does not begin
 * with `compiled` is returned whole: the statement's end is then unknown, and the caller refuses.
 * One pass over the text, no backtracking.
 */
export function textAfterStatement(sql: string, compiled: string): string {
  if (!sql.startsWith(compiled)) return sql;
  let at = compiled.length;
  while (at < sql.length) {
    if (SPACE.has(sql[at]!)) at += 1;
    else if (sql.startsWith('--', at)) {
      const end = sql.indexOf('\n', at + 2);
      at = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', at)) {
      const end = sql.indexOf('*/', at + 2);
      at = end < 0 ? sql.length : end + 2;
    } else return sql.slice(at);
  }
  return '';
}
