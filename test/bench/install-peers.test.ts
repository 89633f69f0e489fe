import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { installPeers } from '../../bench/lib/run-peers';

/** A peers folder with a lock and a node_modules that says it installed `installed`. */
function peersDir(installed: string | undefined): { dir: string; lockHash: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peers-'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"p","version":"0.0.0","private":true}');
  // A lock of no packages: `npm ci` installs nothing, quickly.
  const lock =
    '{"name":"p","version":"0.0.0","lockfileVersion":3,"requires":true,"packages":{"":{"name":"p","version":"0.0.0"}}}';
  fs.writeFileSync(path.join(dir, 'package-lock.json'), lock);
  fs.mkdirSync(path.join(dir, 'node_modules'));
  if (installed !== undefined) fs.writeFileSync(path.join(dir, 'node_modules', '.installed-lock-sha256'), installed);
  return { dir, lockHash: createHash('sha256').update(lock).digest('hex') };
}

describe("the peers' install", () => {
  it('is skipped when node_modules holds what the lock names', async () => {
    const { dir, lockHash } = peersDir(undefined);
    fs.writeFileSync(path.join(dir, 'node_modules', '.installed-lock-sha256'), `${lockHash}\n`);
    expect(await installPeers(dir, () => {})).toBeUndefined();
  });

  it('runs again when the lock changed since, or node_modules says nothing of it', async () => {
    for (const installed of ['an older lock', undefined]) {
      const { dir, lockHash } = peersDir(installed);
      const lines: string[] = [];
      expect(await installPeers(dir, (line) => lines.push(line))).toBeUndefined();
      expect(lines.join('\n')).toContain('npm ci');
      // Installed: the next call skips.
      expect(fs.readFileSync(path.join(dir, 'node_modules', '.installed-lock-sha256'), 'utf8').trim()).toBe(lockHash);
    }
  }, 120_000);
});
