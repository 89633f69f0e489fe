/**
 * What keeps a SQLite query read-only, each stopping something on its own (docs/tools-sql.md,
 * "What keeps it read-only"). All are on for every call; a test may switch one off to show what it
 * alone stops (`SqliteSwitches`). The fifth, the kill at the deadline, is the parent's and has no
 * switch: nothing else stops a long read.
 */
export const SQLITE_LAYERS = [
  /** The file is opened with `readOnly: true`: SQLite refuses every write to it, and never creates it. */
  'read-only-open',
  /** `PRAGMA query_only = ON`: SQLite refuses every write on the connection, the temp database's too. */
  'query-only',
  /** `EXPLAIN` first: the statement runs only if its bytecode is all read opcodes and returns rows (`reviewSqliteProgram`). */
  'read-only-program',
  /** Nothing but whitespace and comments after the statement SQLite compiled (`textAfterStatement`). */
  'one-statement',
] as const;
export type SqliteLayer = (typeof SQLITE_LAYERS)[number];

/** Test-only switches for one query: never set by `createSqliteQueryTool`, not exported from the package. */
export interface SqliteSwitches {
  off?: readonly SqliteLayer[];
}
