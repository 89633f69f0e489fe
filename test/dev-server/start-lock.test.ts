import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withStartLock } from '../../src/dev-server/install/start-lock';
import { makeTempDir } from './fixtures';

/** A pid that is certainly dead: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('withStartLock', () => {
  let dir: string;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs concurrent holders one after the other and removes the lock after each', async () => {
    dir = makeTempDir();
    const lock = path.join(dir, '.thoughtline', 'temporal-server.lock');
    const events: string[] = [];
    const hold = (name: string) =>
      withStartLock(lock, { log: () => {} }, async () => {
        events.push(`${name} in`);
        expect(fs.readFileSync(lock, 'utf8').trim()).toBe(String(process.pid));
        await new Promise((resolve) => setTimeout(resolve, 300));
        events.push(`${name} out`);
        return name;
      });
    expect(await Promise.all([hold('a'), hold('b')])).toEqual(['a', 'b']);
    expect(events).toEqual(['a in', 'a out', 'b in', 'b out']);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('takes over a lock left by a dead process', async () => {
    dir = makeTempDir();
    const lock = path.join(dir, 'temporal-server.lock');
    fs.writeFileSync(lock, `${deadPid()}\n`);
    const started = Date.now();
    expect(await withStartLock(lock, { log: () => {} }, async () => fs.readFileSync(lock, 'utf8').trim())).toBe(
      String(process.pid),
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('waits for a live holder, says so, and gives up after its limit naming the lock file', async () => {
    dir = makeTempDir();
    const lock = path.join(dir, 'temporal-server.lock');
    fs.writeFileSync(lock, `${process.ppid}\n`); // our parent: alive, and not us
    const lines: string[] = [];
    let ran = false;
    const error = await withStartLock(
      lock,
      { log: (l) => lines.push(l), waitLimitMs: 600 },
      async () => (ran = true),
    ).catch((e: Error) => e);
    expect(ran).toBe(false);
    expect(lines).toEqual([`another process (pid ${process.ppid}) is starting a Temporal server; waiting for it`]);
    expect((error as Error).message).toContain(`remove ${lock}`);
    expect(fs.readFileSync(lock, 'utf8').trim()).toBe(String(process.ppid));
  });
});
