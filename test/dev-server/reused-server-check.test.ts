import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ensureTemporalServer,
  findOrInstallTemporalCli,
  findTemporalServer,
  isReachable,
  NoTemporalServerError,
  type TemporalServer,
} from '../../src/dev-server';
import { freePortPair, makeTempDir } from './fixtures';

describe('a reused server is checked; finding one never starts one', () => {
  let temporal: string;
  const dirs: string[] = [];
  const started: TemporalServer[] = [];
  beforeAll(async () => {
    temporal = await findOrInstallTemporalCli({ log: () => {} });
  }, 180_000);
  afterEach(async () => {
    vi.unstubAllEnvs();
    await Promise.all(started.splice(0).map((s) => s.stop()));
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  function isolateEnv(cli: string): void {
    vi.stubEnv('TEMPORAL_ADDRESS', '');
    vi.stubEnv('TEMPORAL_NAMESPACE', '');
    vi.stubEnv('THOUGHTLINE_TEMPORAL_CLI', cli);
  }
  const tempDir = (): string => {
    const dir = makeTempDir();
    dirs.push(dir);
    return dir;
  };

  it('reports a server left by a deleted checkout (its database folder gone) with the pid to stop', async () => {
    isolateEnv(temporal);
    const port = await freePortPair();
    const deleted = tempDir();
    const server = await ensureTemporalServer({ projectRoot: deleted, port, log: () => {} });
    started.push(server);
    fs.rmSync(path.join(deleted, '.thoughtline'), { recursive: true, force: true });

    const before = Date.now();
    const error = (await ensureTemporalServer({ projectRoot: tempDir(), port, log: () => {} }).catch(
      (e: Error) => e,
    )) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(
      new RegExp(
        `^a Temporal server on 127\\.0\\.0\\.1:${port} does not work \\(it cannot start a workflow in namespace 'default' \\(was its database deleted\\?\\)`,
      ),
    );
    const pid = Number(/stop it \(pid (\d+): kill \d+\), or set TEMPORAL_ADDRESS/.exec(error.message)?.[1]);
    expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toEqual(
      expect.arrayContaining(['start-dev', '--port', String(port)]),
    );
    expect(Date.now() - before).toBeLessThan(15_000);
    await expect(findTemporalServer({ port, log: () => {} })).rejects.toThrow(/does not work/);
  }, 90_000);

  it('reuses a working server after starting and deleting a probe workflow', async () => {
    isolateEnv(temporal);
    const port = await freePortPair();
    started.push(await ensureTemporalServer({ projectRoot: tempDir(), port, log: () => {} }));
    const lines: string[] = [];
    const found = await findTemporalServer({ port, log: (l) => lines.push(l) });
    expect(found).toMatchObject({ address: `127.0.0.1:${port}`, source: 'already-running' });
    expect(lines.join('\n')).toContain(`reusing the Temporal server already running at 127.0.0.1:${port}`);
  }, 60_000);

  it('findTemporalServer with nothing listening fails at once, says how to start one, and starts nothing', async () => {
    const dir = tempDir();
    const marker = path.join(dir, 'temporal-was-run');
    const fake = path.join(dir, 'temporal');
    fs.writeFileSync(fake, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, { mode: 0o755 });
    isolateEnv(fake);
    const port = await freePortPair();
    const before = Date.now();
    const error = await findTemporalServer({ port, log: () => {} }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(NoTemporalServerError);
    expect((error as Error).message).toBe(
      `no Temporal server is running at 127.0.0.1:${port}. Start one in another terminal with "npx thoughtline dev --port ${port}" ` +
        '(it runs until Ctrl-C), or set TEMPORAL_ADDRESS to yours.',
    );
    expect(Date.now() - before).toBeLessThan(3000);
    expect(fs.existsSync(marker)).toBe(false);
    expect(await isReachable(`127.0.0.1:${port}`)).toBe(false);
  });
});
