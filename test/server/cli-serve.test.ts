import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenFile } from '../../src/server/auth/token-file';
import { tokenSha256 } from '../../src/server/auth/token-hash';
import { cliEnv, runCli, spawnCli, type CliProcess } from '../helpers/cli-process';
import { eventually, runThroughApi } from './server-harness';
import { freePort } from '../../src/dev-server/probes/free-port';

const portIsFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = net.createServer().listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    probe.on('error', () => resolve(false));
  });

const queue = `serve-${randomUUID()}`;
const env = cliEnv({ THOUGHTLINE_TASK_QUEUE: queue });
let dir: string;
let worker: CliProcess;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-serve-'));
  // The worker in its own process, with the offline model (no API key in the environment).
  worker = spawnCli(['worker'], env);
  await worker.waitFor(/worker polling task queue/);
});
afterAll(async () => {
  worker?.child.kill('SIGTERM');
  await worker?.exited;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('thoughtline token', () => {
  it('adds a hashed entry to a 0600 file and prints the token once', async () => {
    const file = path.join(dir, 'people.json');
    const alice = await runCli(
      ['token', '--id', 'alice', '--roles', 'developer, approver', '--tenant', 'acme', '--file', file],
      env,
    );
    expect(alice.code).toBe(0);
    const token = alice.stdout.trim();
    expect(token).toMatch(/^tl_[A-Za-z0-9_-]{43}$/);
    expect(alice.stderr).toContain('added a token for alice (roles: developer, approver, tenant acme)');
    const bob = await runCli(['token', '--id', 'bob', '--file', file], env);
    const parsed = TokenFile.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    expect(parsed.tokens).toEqual([
      { sha256: tokenSha256(token), id: 'alice', roles: ['developer', 'approver'], tenant: 'acme' },
      { sha256: tokenSha256(bob.stdout.trim()), id: 'bob', roles: [] },
    ]);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(token);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const noId = await runCli(['token', '--roles', 'x', '--file', file], env);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain('"token" needs --id NAME');
  });
});

describe('thoughtline serve', () => {
  it('serves a run started over HTTP to a worker in another process, and frees its port on SIGTERM', async () => {
    const file = path.join(dir, 'serve-tokens.json');
    const token = (await runCli(['token', '--id', 'carol', '--roles', 'developer', '--file', file], env)).stdout.trim();
    const port = await freePort();
    const page = 'http://localhost:5173';
    const server = spawnCli(['serve', '--port', String(port), '--tokens', file, '--allow-origin', page], env);
    try {
      await server.waitFor(/serving http:\/\/127\.0\.0\.1:\d+/);
      expect(server.output()).not.toContain('#token=');
      const base = `http://127.0.0.1:${port}`;
      const done = await runThroughApi(base, token);
      expect(done).toMatchObject({ agentName: 'agent', chainStatus: 'completed' });
      const headers = { authorization: `Bearer ${token}` };
      const { runId } = done;
      const chain = (await (await fetch(`${base}/v1/runs/${runId}/chain`, { headers })).json()) as {
        chain: { caller: unknown; steps: unknown[] };
      };
      expect(chain.chain.steps.length).toBeGreaterThan(0);
      expect((await fetch(`${base}/v1/me`)).status).toBe(401);
      // --allow-origin: that page's preflight is answered, another's refused (test/server/cross-origin-browser.test.ts).
      const preflight = (origin: string) =>
        fetch(`${base}/v1/runs`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      expect((await preflight(page)).headers.get('access-control-allow-origin')).toBe(page);
      expect((await preflight('http://localhost:5174')).status).toBe(403);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('stopping');
    expect(await portIsFree(port)).toBe(true);
  });

  it('with no token file and no OIDC, writes one for "you" (0600) and prints the URL with the token once; never on a public host', async () => {
    const file = path.join(dir, 'fresh', 'tokens.json');
    const refused = await runCli(
      ['serve', '--port', String(await freePort()), '--host', '0.0.0.0', '--tokens', file],
      env,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('No token file at');
    expect(fs.existsSync(file)).toBe(false);
    const wildcard = await runCli(['serve', '--tokens', file, '--allow-origin', '*'], env);
    expect(wildcard.code).toBe(2);
    expect(wildcard.stderr).toContain('--allow-origin "*" is not an origin a page can have');

    const port = await freePort();
    const server = spawnCli(['serve', '--port', String(port), '--tokens', file], env);
    try {
      await server.waitFor(/Open http:\/\/127\.0\.0\.1:\d+\/#token=tl_\S+/);
      const token = /#token=(\S+)/.exec(server.output())![1]!;
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const me = await fetch(`http://127.0.0.1:${port}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(await me.json()).toEqual({
        id: 'you',
        roles: ['developer', 'auditor', 'approver'],
        views: ['end_user', 'developer', 'auditor'],
        defaultView: 'auditor',
      });
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
    // A second start finds the file and prints no token.
    const again = spawnCli(['serve', '--port', String(port), '--tokens', file], env);
    try {
      await again.waitFor(/serving http/);
      expect(again.output()).not.toContain('#token=');
    } finally {
      again.child.kill('SIGTERM');
    }
    expect(await again.exited).toBe(0);
  });

  it('--with-worker runs the agent in the same process (the one-machine quick start)', async () => {
    const file = path.join(dir, 'with-worker.json');
    const token = (await runCli(['token', '--id', 'dana', '--roles', 'developer', '--file', file], env)).stdout.trim();
    const port = await freePort();
    const alone = cliEnv({ THOUGHTLINE_TASK_QUEUE: `serve-alone-${randomUUID()}` });
    const server = spawnCli(['serve', '--port', String(port), '--tokens', file, '--with-worker'], alone);
    try {
      await server.waitFor(/serving http:\/\/127\.0\.0\.1:\d+ .*with a worker on task queue/);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const started = (await (
        await fetch(`http://127.0.0.1:${port}/v1/runs`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ task: 'What is the weather in Tokyo?' }),
        })
      ).json()) as { runId: string };
      await eventually(
        'the run to complete',
        async () => {
          const status = (await (
            await fetch(`http://127.0.0.1:${port}/v1/runs/${started.runId}`, { headers })
          ).json()) as { status: string };
          return status.status === 'completed' ? status : undefined;
        },
        60_000,
      );
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  });
});
