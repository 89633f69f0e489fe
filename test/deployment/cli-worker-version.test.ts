import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listVersions } from '../../src/deployment';
import { freePort } from '../../src/dev-server/probes/free-port';
import { cliEnv, runCli, spawnCli, type CliProcess } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

/** The build id a started worker printed for deployment `name`, once it says it is current. */
async function printedBuildId(proc: CliProcess, name: string): Promise<string> {
  const line = new RegExp(`version ${name}/(\\d+\\.\\d+\\.\\d+\\S*-[0-9a-f]{12}), current: it takes every new run`);
  await proc.waitFor(line, 90_000);
  return line.exec(proc.output())![1]!;
}

async function stop(proc: CliProcess): Promise<void> {
  proc.child.kill('SIGTERM');
  expect(await proc.exited).toBe(0);
}

describe('thoughtline worker and serve --with-worker print their version', () => {
  it(
    'both declare the same build of the same code, current in THOUGHTLINE_DEPLOYMENT_NAME',
    { timeout: 240_000 },
    async () => {
      const taskQueue = `cli-version-${randomUUID()}`;
      const name = `cli-deployment-${randomUUID()}`;
      const cli = cliEnv({ THOUGHTLINE_TASK_QUEUE: taskQueue, THOUGHTLINE_DEPLOYMENT_NAME: name });
      const current = async () => (await listVersions(env.client, name, taskQueue)).find((v) => v.status === 'current');

      const worker = spawnCli(['worker'], cli);
      let buildId: string;
      try {
        buildId = await printedBuildId(worker, name);
        expect((await current())?.buildId).toBe(buildId);
      } finally {
        await stop(worker);
      }

      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-version-'));
      const tokens = path.join(dir, 'tokens.json');
      expect((await runCli(['token', '--id', 'dana', '--file', tokens], cli)).code).toBe(0);
      const server = spawnCli(['serve', '--port', String(await freePort()), '--tokens', tokens, '--with-worker'], cli);
      try {
        expect(await printedBuildId(server, name)).toBe(buildId);
        expect(server.output()).toMatch(new RegExp(`with a worker on task queue "${taskQueue}", version ${name}/`));
        expect((await current())?.buildId).toBe(buildId);
      } finally {
        await stop(server);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
