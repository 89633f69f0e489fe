import { NodeSqliteUnavailableError } from './node-sqlite-unavailable-error';

type NodeSqlite = typeof import('node:sqlite');
let loaded: NodeSqlite | undefined;

/**
 * `node:sqlite`, loaded on first use (the run cache, and tests that make or read a database).
 * Node 22 warns once that SQLite is experimental when it loads; that one warning is dropped (it
 * would reach every worker's log), every other still goes out. On a Node without it (the package
 * loads on Node 20, as Temporal's SDK does) it throws `NodeSqliteUnavailableError` naming `what`.
 */
export function loadNodeSqlite(what = 'SQLite'): NodeSqlite {
  if (loaded) return loaded;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.startsWith('SQLite is an experimental feature')) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    // getBuiltinModule came in Node 20.16; before it, and without node:sqlite, there is nothing to load.
    loaded = typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule('node:sqlite') : undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
  if (!loaded) throw new NodeSqliteUnavailableError(what);
  return loaded;
}
