import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrInstallTemporalCli } from '../../src/dev-server';
import { findListeningPid } from '../../src/dev-server/probes/find-listening-pid';
import { thoughtlinePaths } from '../../src/dev-server/project-paths';
import { spawnScript, type CliProcess } from '../helpers/cli-process';
import { freePortPair, isolatedCli, makeTempDir, ownServerEnv } from './fixtures';

const READY = /dev server on 127\.0\.0\.1:\d+, Web UI http:\/\/localhost:\d+\. Ctrl-C stops it\./;

/** The database file the server listening on `port` was started with (its --db-filename). */
function dbFileOfServerOn(port: number): string | undefined {
  const pid = findListeningPid(port);
  if (pid === undefined) return undefined;
  const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  return args[args.indexOf('--db-filename') + 1];
}

describe('thoughtline dev on two ports of one project', () => {
  let root: string;
  let cli: string;
  let env: NodeJS.ProcessEnv;
  const spawned: CliProcess[] = [];

  beforeAll(async () => {
    root = makeTempDir();
    cli = isolatedCli(root);
    env = ownServerEnv({ THOUGHTLINE_TEMPORAL_CLI: await findOrInstallTemporalCli({ log: () => {} }) });
  }, 180_000);
  afterAll(async () => {
    for (const p of spawned) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    await Promise.all(spawned.map((p) => p.exited));
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it('the default port keeps the file it always had, so an existing project keeps its runs', () => {
    expect(thoughtlinePaths('/p').dbFile).toBe(path.join('/p', '.thoughtline', 'data', 'temporal.db'));
    expect(thoughtlinePaths('/p', 7233)).toEqual(thoughtlinePaths('/p'));
    expect(thoughtlinePaths('/p', 7300).dbFile).toBe(path.join('/p', '.thoughtline', 'data', 'temporal-7300.db'));
  });

  it('keeps each server in a database, log and pid file of its own', async () => {
    const ports = [await freePortPair(), await freePortPair()];
    const servers = ports.map((port) => {
      const p = spawnScript(cli, ['dev', '--port', String(port)], env);
      spawned.push(p);
      return p;
    });
    await Promise.all(servers.map((s) => s.waitFor(READY, 90_000)));
    const data = path.join(root, '.thoughtline', 'data');
    const files = ports.map((port) => path.join(data, `temporal-${port}.db`));
    expect(ports.map(dbFileOfServerOn)).toEqual(files);
    for (const file of files) expect(fs.existsSync(file), file).toBe(true);
    expect(fs.existsSync(path.join(data, 'temporal.db'))).toBe(false);
    for (const [i, s] of servers.entries()) expect(s.output()).toContain(`temporal-server-${ports[i]}.log`);

    for (const s of servers) s.child.kill('SIGINT');
    expect(await Promise.all(servers.map((s) => s.exited))).toEqual([0, 0]);
  }, 150_000);
});
