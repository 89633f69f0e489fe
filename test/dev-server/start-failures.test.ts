import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ensureTemporalServer } from '../../src/dev-server';
import { freePortPair, makeTempDir } from './fixtures';

describe('ensureTemporalServer failure reports', () => {
  let root: string;
  afterEach(() => {
    vi.unstubAllEnvs();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('reports a server that exits during start-up with the tail of its log', async () => {
    root = makeTempDir();
    const broken = path.join(root, 'broken-temporal');
    fs.writeFileSync(broken, '#!/bin/sh\necho "bind: address already in use (pretend)" >&2\nexit 3\n', { mode: 0o755 });
    vi.stubEnv('TEMPORAL_ADDRESS', '');
    vi.stubEnv('THOUGHTLINE_TEMPORAL_CLI', broken);
    const port = await freePortPair();
    const error = await ensureTemporalServer({ projectRoot: root, port, log: () => {} }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/did not come up: the server exited \(code 3\)/);
    expect((error as Error).message).toContain('bind: address already in use (pretend)');
  });

  it('refuses a port held by something that is not Temporal', async () => {
    root = makeTempDir();
    vi.stubEnv('TEMPORAL_ADDRESS', '');
    const sockets = new Set<net.Socket>();
    const impostor = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {}); // the gRPC client resets the connection
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const { port } = impostor.address() as net.AddressInfo;
    try {
      await expect(ensureTemporalServer({ projectRoot: root, port, log: () => {} })).rejects.toThrow(
        new RegExp(
          `a Temporal server on 127\\.0\\.0\\.1:${port} does not work \\(namespace 'default' does not answer: .*\\); stop it \\(pid ${process.pid}: kill ${process.pid}\\)`,
        ),
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => impostor.close(resolve));
    }
  });
});
