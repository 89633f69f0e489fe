import fs from 'node:fs';
import path from 'node:path';

/** How long a waiter waits for a live holder: an install from PyPI or go plus a start-up fit well inside. */
const WAIT_LIMIT_MS = 5 * 60_000;
const POLL_MS = 200;

export interface StartLockOptions {
  log: (line: string) => void;
  /** Default 5 minutes. */
  waitLimitMs?: number;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(lockFile: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(lockFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Creates `lockFile` holding our pid; false when it already exists. */
function tryCreate(lockFile: string): boolean {
  try {
    fs.writeFileSync(lockFile, `${process.pid}\n`, { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * Runs `fn` while holding `lockFile` (created with O_EXCL, holding our pid), so that two commands
 * starting a server at once do it one after the other: the second finds the first's server
 * running. A lock whose pid is dead, or that a process being written has left empty for
 * over a second, is taken over. Not a lock between threads of one process: `fn` of the same
 * pid waits like any other.
 */
export async function withStartLock<T>(lockFile: string, opts: StartLockOptions, fn: () => Promise<T>): Promise<T> {
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  const deadline = Date.now() + (opts.waitLimitMs ?? WAIT_LIMIT_MS);
  let announced = false;
  while (!tryCreate(lockFile)) {
    const pid = holderOf(lockFile);
    const stale = pid === undefined ? Date.now() - mtimeMs(lockFile) > 1000 : !isAlive(pid);
    if (stale) {
      // Between reading and removing, another waiter may have taken over first; its lock is then
      // removed too and both proceed. The window is a few microseconds between two start-ups.
      fs.rmSync(lockFile, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `another process (pid ${pid}) has been starting a Temporal server for too long; if it is stuck, stop it or remove ${lockFile}`,
      );
    }
    if (!announced && pid !== process.pid)
      opts.log(`another process (pid ${pid}) is starting a Temporal server; waiting for it`);
    announced = true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    return await fn();
  } finally {
    if (holderOf(lockFile) === process.pid) fs.rmSync(lockFile, { force: true });
  }
}

function mtimeMs(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
