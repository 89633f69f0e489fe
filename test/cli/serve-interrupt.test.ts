import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/dev-server/probes/free-port';
import { cliEnv, runCli, spawnCli } from '../helpers/cli-process';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-serve-stop-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('serve on Ctrl-C', () => {
  it('says that it stops and what it waits for, then exits 0', async () => {
    const env = cliEnv({ THOUGHTLINE_TASK_QUEUE: `serve-stop-${randomUUID()}`, THOUGHTLINE_STORE: 'off' });
    const tokens = path.join(dir, 'tokens.json');
    expect((await runCli(['token', '--id', 'dana', '--file', tokens], env)).code).toBe(0);
    const server = spawnCli(['serve', '--port', String(await freePort()), '--tokens', tokens, '--with-worker'], env);
    await server.waitFor(/serving http:\/\/127\.0\.0\.1:\d+/);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    const after = server.output().slice(server.output().search(/serving http/));
    expect(after).toMatch(
      /thoughtline: Ctrl-C: stopping serve: waiting for the HTTP server to close.*the worker's tasks in flight/,
    );
    expect(after).toMatch(/thoughtline: serve stopped\n/);
    expect(after).not.toContain('the worker stopped by itself');
  });
});
