type NodeSqlite = typeof import('node:sqlite');
let loaded: NodeSqlite | undefined;

/**
 * `node:sqlite`, loaded on first use (the run cache, and tests that make or read a database).
 * Node 22 warns once that SQLite is experimental when it loads; that one warning is dropped (it
 * would reach every worker's log), every other still goes out.
 */
export function loadNodeSqlite(): NodeSqlite {
  if (loaded) return loaded;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.startsWith('SQLite is an experimental feature')) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    loaded = process.getBuiltinModule('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
  return loaded;
}
