import type { DatabaseSync } from 'node:sqlite';

type NodeSqlite = typeof import('node:sqlite');
let nodeSqlite: NodeSqlite | undefined;

/**
 * Opens a SQLite file with Node's built-in `node:sqlite`, for tests that make or read a database
 * (the SQLite tool itself runs better-sqlite3 in its query process: docs/tools-sql.md says why).
 * Node 22 warns once that SQLite is experimental when the module loads; that one warning is
 * dropped, every other one still reaches the test output.
 */
export function openSqlite(file: string, options: { readOnly?: boolean } = {}): DatabaseSync {
  return new (loadNodeSqlite().DatabaseSync)(file, options);
}

function loadNodeSqlite(): NodeSqlite {
  if (nodeSqlite) return nodeSqlite;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.startsWith('SQLite is an experimental feature')) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    nodeSqlite = process.getBuiltinModule('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
  return nodeSqlite;
}
