import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/cli-process';
import { eventually } from '../server/server-harness';

// Under the checkout, so the setup below resolves the repository's modules as the suite's does.
const dir = fs.mkdtempSync(path.join(PROJECT_ROOT, '.thoughtline/tmp/interrupted-vitest-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A vitest run of its own on a tiny config: the suite's server start (startSuiteServer) as its
 * global setup, which prints the server's pid, and one test that waits until interrupted.
 */
const SETUP = `
import { ownDevServerPids, startSuiteServer } from '${path.join(PROJECT_ROOT, 'test/helpers/suite-server')}';
export default async function setup() {
  const server = await startSuiteServer(() => {});
  console.error('SERVER_PIDS=' + ownDevServerPids().join(','));
  return () => server.stop();
}
`;
const WAITING_TEST = `
import { it } from 'vitest';
it('waits', async () => {
  console.error('TEST_RUNNING');
  await new Promise((resolve) => setTimeout(resolve, 60_000));
}, 70_000);
`;
const CONFIG = `
import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { globalSetup: ['./setup.ts'], include: ['waiting.test.ts'] } });
`;

describe('an interrupted vitest', () => {
  it('stops the Temporal dev server its global setup started', async () => {
    fs.writeFileSync(path.join(dir, 'setup.ts'), SETUP);
    fs.writeFileSync(path.join(dir, 'waiting.test.ts'), WAITING_TEST);
    fs.writeFileSync(path.join(dir, 'vitest.config.mts'), CONFIG);
    const env = { ...process.env };
    delete env.THOUGHTLINE_TEST_TEMPORAL_ADDRESS; // a server of its own, never a cluster's
    const vitest = spawn(
      process.execPath,
      [path.join(PROJECT_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.config.mts'],
      { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    vitest.stdout.on('data', (d: Buffer) => (out += d.toString()));
    vitest.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<void>((resolve) => vitest.on('close', () => resolve()));
    let pids: number[] = [];
    try {
      await eventually('the waiting test running', async () => out.includes('TEST_RUNNING') || undefined, 60_000);
      pids = /SERVER_PIDS=([\d,]+)/.exec(out)![1]!.split(',').map(Number);
      expect(pids.length, out).toBe(1);
      expect(alive(pids[0]!)).toBe(true);

      vitest.kill('SIGINT');
      await exited;
      await eventually('the server gone', async () => !alive(pids[0]!) || undefined, 5_000);
    } finally {
      vitest.kill('SIGKILL');
      // Whatever the outcome, no server of this test outlives it.
      for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL');
    }
  }, 90_000);
});
