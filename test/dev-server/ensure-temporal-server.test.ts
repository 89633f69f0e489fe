import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureTemporalServer, findOrInstallTemporalCli, isReachable, type TemporalServer } from '../../src/dev-server';
import { SEARCH_ATTRIBUTES } from '../../src/domain/run/search-attributes';
import { freePortPair, makeTempDir } from './fixtures';

async function registeredAttributes(address: string, namespace: string): Promise<string[]> {
  const connection = await Connection.connect({ address });
  try {
    await connection.workflowService.describeNamespace({ namespace });
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    return Object.keys(customAttributes ?? {});
  } finally {
    await connection.close();
  }
}

describe('ensureTemporalServer (real dev server)', () => {
  let root: string;
  let localBinary: string;
  let lines: string[];
  const log = (l: string): void => void lines.push(l);
  const started: TemporalServer[] = [];

  beforeAll(async () => {
    // The real binary, obtained through this module for the real project root (installs on first run).
    const realCli = await findOrInstallTemporalCli({ log: () => {} });
    root = makeTempDir();
    localBinary = path.join(root, '.thoughtline', 'bin', 'temporal');
    fs.mkdirSync(path.dirname(localBinary), { recursive: true });
    fs.copyFileSync(realCli, localBinary);
    fs.chmodSync(localBinary, 0o755);
  }, 180_000);

  afterEach(async () => {
    vi.unstubAllEnvs();
    await Promise.all(started.splice(0).map((s) => s.stop()));
  });
  // A server stopped by SIGTERM may still be closing its database files; rmSync retries ENOTEMPTY meanwhile.
  afterAll(() => fs.rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }));

  function isolateEnv(): void {
    lines = [];
    vi.stubEnv('TEMPORAL_ADDRESS', '');
    vi.stubEnv('TEMPORAL_NAMESPACE', '');
    vi.stubEnv('THOUGHTLINE_TEMPORAL_CLI', '');
    vi.stubEnv('PATH', ''); // so discovery must pick <root>/.thoughtline/bin
  }

  it('starts, reuses, hands over via TEMPORAL_ADDRESS, stops, and restarts on the same db', async () => {
    isolateEnv();
    const port = await freePortPair();
    const first = await ensureTemporalServer({ projectRoot: root, port, detached: false, log });
    started.push(first);
    expect(first).toMatchObject({
      address: `127.0.0.1:${port}`,
      namespace: 'default',
      source: 'started',
      uiUrl: `http://localhost:${port + 1000}`,
    });
    expect(lines.join('\n')).toContain(`${localBinary} server start-dev`);
    // A port other than 7233 keeps its state in a file of its own (dev-server-state-per-port.test.ts).
    expect(fs.existsSync(path.join(root, '.thoughtline', 'data', `temporal-${port}.db`))).toBe(true);
    expect(await registeredAttributes(first.address, 'default')).toEqual(
      expect.arrayContaining(SEARCH_ATTRIBUTES.map((a) => a.name)),
    );

    const second = await ensureTemporalServer({ projectRoot: root, port, log });
    expect(second.source).toBe('already-running');
    await second.stop();
    expect(await isReachable(first.address)).toBe(true);

    vi.stubEnv('TEMPORAL_ADDRESS', first.address);
    const viaEnv = await ensureTemporalServer({ projectRoot: root, port: port + 1, log });
    expect(viaEnv).toMatchObject({ address: first.address, source: 'env' });
    vi.stubEnv('TEMPORAL_ADDRESS', '');

    await first.stop();
    expect(await isReachable(first.address)).toBe(false);

    // Re-registering the same search attributes against the persisted db must not fail.
    const third = await ensureTemporalServer({ projectRoot: root, port, log });
    started.push(third);
    expect(third.source).toBe('started');
    expect(await registeredAttributes(third.address, 'default')).toEqual(
      expect.arrayContaining(SEARCH_ATTRIBUTES.map((a) => a.name)),
    );
  }, 120_000);

  it('creates TEMPORAL_NAMESPACE with the search attributes', async () => {
    isolateEnv();
    vi.stubEnv('TEMPORAL_NAMESPACE', 'thoughtline-test');
    const server = await ensureTemporalServer({ projectRoot: root, port: await freePortPair(), log });
    started.push(server);
    expect(server.namespace).toBe('thoughtline-test');
    expect(await registeredAttributes(server.address, 'thoughtline-test')).toContain('ThoughtlineStatus');
  }, 60_000);

  it('leaves a detached server running after stop() and records its pid', async () => {
    isolateEnv();
    const port = await freePortPair();
    const server = await ensureTemporalServer({ projectRoot: root, port, detached: true, log });
    const pid = Number(fs.readFileSync(path.join(root, '.thoughtline', `temporal-server-${port}.pid`), 'utf8'));
    try {
      expect(server.source).toBe('started');
      await server.stop();
      expect(await isReachable(server.address)).toBe(true);
      expect(lines.join('\n')).toContain('keeps running after this process exits');
    } finally {
      process.kill(pid, 'SIGTERM');
    }
    await vi.waitFor(async () => expect(await isReachable(server.address)).toBe(false), {
      timeout: 15_000,
      interval: 200,
    });
  }, 60_000);

  it('refuses to replace an unreachable TEMPORAL_ADDRESS', async () => {
    isolateEnv();
    const deadPort = await freePortPair();
    vi.stubEnv('TEMPORAL_ADDRESS', `127.0.0.1:${deadPort}`);
    await expect(ensureTemporalServer({ projectRoot: root, port: deadPort, log })).rejects.toThrow(
      /TEMPORAL_ADDRESS is set to '127\.0\.0\.1:\d+' but nothing accepts connections/,
    );
    expect(await isReachable(`127.0.0.1:${deadPort}`)).toBe(false);
  });
});
