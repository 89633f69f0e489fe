import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/dev-server/probes/free-port';
import { openChainStore } from '../../src/store/open-chain-store';
import { cliEnv, runCli, spawnCli } from '../helpers/cli-process';
import { runThroughApi } from '../server/server-harness';
import { eventually } from './feed-harness';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-serve-store-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('thoughtline serve --store', () => {
  it('keeps the chain store of the runs it serves, complete once they end, and closes it on SIGTERM', async () => {
    const env = cliEnv({ THOUGHTLINE_TASK_QUEUE: `serve-store-${randomUUID()}` });
    const tokens = path.join(dir, 'tokens.json');
    const token = (
      await runCli(['token', '--id', 'carol', '--roles', 'developer', '--file', tokens], env)
    ).stdout.trim();
    const file = path.join(dir, 'store.sqlite');
    const port = await freePort();
    const server = spawnCli(
      ['serve', '--with-worker', '--port', String(port), '--tokens', tokens, '--store', `sqlite:${file}`],
      env,
    );
    try {
      await server.waitFor(new RegExp(`keeping the chain store ${file.replace(/[.]/g, '\\.')}`));
      const { runId } = await runThroughApi(`http://127.0.0.1:${port}`, token);
      const store = (await openChainStore({ kind: 'sqlite', file }))!;
      try {
        expect(await eventually(async () => (await store.run(runId))?.complete === true)).toBe(true);
        const stored = (await store.run(runId))!;
        expect(stored.state).toBe('completed');
        expect(stored.stepCount).toBeGreaterThan(0);
        expect(stored.stepCount).toBe(stored.lastStep);
      } finally {
        await store.close();
      }
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  });
});
