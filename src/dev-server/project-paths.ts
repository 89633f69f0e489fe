import fs from 'node:fs';
import path from 'node:path';

/** Name of the CLI binary on this platform. */
export const TEMPORAL_EXE = process.platform === 'win32' ? 'temporal.exe' : 'temporal';

/** Where Thoughtline keeps local, git-ignored state under a project root. */
export interface ThoughtlinePaths {
  dir: string;
  binDir: string;
  binary: string;
  dbFile: string;
  logFile: string;
  pidFile: string;
  /** Held while one process starts a server, so that a second one waits and reuses it. */
  startLockFile: string;
}

/** The port a dev server listens on unless told otherwise; its files keep their first names. */
export const DEFAULT_DEV_PORT = 7233;

/**
 * The files of `projectRoot`'s dev server on `port`: one database, log and pid file per port, so
 * two dev servers on two ports never write one SQLite file at once. The default port's keep the
 * names they always had (`data/temporal.db`…), so an existing project keeps its runs.
 */
export function thoughtlinePaths(projectRoot: string, port: number = DEFAULT_DEV_PORT): ThoughtlinePaths {
  const dir = path.join(projectRoot, '.thoughtline');
  const binDir = path.join(dir, 'bin');
  const suffix = port === DEFAULT_DEV_PORT ? '' : `-${port}`;
  return {
    dir,
    binDir,
    binary: path.join(binDir, TEMPORAL_EXE),
    dbFile: path.join(dir, 'data', `temporal${suffix}.db`),
    logFile: path.join(dir, `temporal-server${suffix}.log`),
    pidFile: path.join(dir, `temporal-server${suffix}.pid`),
    startLockFile: path.join(dir, 'temporal-server.lock'),
  };
}

/**
 * Nearest directory at or above `startDir` holding a package.json. The default start is this
 * file's directory, so it resolves to the repo root from both `src/dev-server` and `dist/src/dev-server`.
 */
export function findProjectRoot(startDir: string = __dirname): string {
  let dir = path.resolve(startDir);
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json found at or above ${startDir}; pass projectRoot explicitly`);
    dir = parent;
  }
}
