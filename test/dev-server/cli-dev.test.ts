import fs from 'node:fs';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrInstallTemporalCli, isReachable } from '../../src/dev-server';
import { checkCanStartWorkflow } from '../../src/dev-server/probes/check-can-start-workflow';
import { findListeningPid } from '../../src/dev-server/probes/find-listening-pid';
import { spawnScript, type CliProcess } from '../helpers/cli-process';
import { freePortPair, isolatedCli, makeTempDir, ownServerEnv } from './fixtures';

const READY = /dev server on 127\.0\.0\.1:\d+, Web UI http:\/\/localhost:\d+\. Ctrl-C stops it\./;

describe('thoughtline dev (the compiled CLI in a project of its own, on a port of its own)', () => {
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
    // Only the processes this file started, should a test have failed half-way.
    for (const p of spawned) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    await Promise.all(spawned.map((p) => p.exited));
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  const dev = (port: number, extraEnv: NodeJS.ProcessEnv = {}): CliProcess => {
    const p = spawnScript(cli, ['dev', '--port', String(port)], { ...env, ...extraEnv });
    spawned.push(p);
    return p;
  };

  it('runs until SIGINT with its server answering, then stops the server and exits 0', async () => {
    const port = await freePortPair();
    const address = `127.0.0.1:${port}`;
    const server = dev(port, { THOUGHTLINE_RETENTION_DAYS: '30' });
    await server.waitFor(READY);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(server.child.exitCode, server.output()).toBeNull();
    await checkCanStartWorkflow(address, 'default');
    // The namespace keeps closed runs as long as configured (default 90 days).
    const connection = await Connection.connect({ address });
    const described = await connection.workflowService
      .describeNamespace({ namespace: 'default' })
      .finally(() => connection.close());
    expect(Number(described.config?.workflowExecutionRetentionTtl?.seconds)).toBe(30 * 86_400);

    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('stopping the dev server');
    expect(await isReachable(address)).toBe(false);
  }, 90_000);

  it('two started at the same moment: one starts the server, the other finds it and exits 0', async () => {
    const port = await freePortPair();
    const both = [dev(port), dev(port)];
    const first = await Promise.any(both.map((p) => p.waitFor(READY).then(() => p)));
    const other = both.find((p) => p !== first)!;
    expect(await other.exited, other.output()).toBe(0);
    expect(other.output()).toContain(`a Temporal server is already available at 127.0.0.1:${port}; nothing to start.`);
    expect(other.output()).not.toContain('starting a dev server');
    expect(first.child.exitCode).toBeNull();

    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(await isReachable(`127.0.0.1:${port}`)).toBe(false);
  }, 90_000);

  it('exits 1 and says so when its server dies under it', async () => {
    const port = await freePortPair();
    const server = dev(port);
    await server.waitFor(READY);
    const serverPid = findListeningPid(port);
    expect(serverPid).toBeGreaterThan(0);
    expect(serverPid).not.toBe(server.child.pid);
    process.kill(serverPid!, 'SIGKILL');
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(
      new RegExp(`the server exited \\(SIGKILL\\); its output is in .*temporal-server-${port}\\.log`),
    );
  }, 90_000);
});
