import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export function makeTempDir(prefix = 'thoughtline-dev-server-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes an executable shell script that answers `--version` like the real CLI (or prints `versionLine`). */
export function writeFakeCli(file: string, versionLine = 'temporal version 0.0.0-fake'): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\necho "${versionLine}"\n`, { mode: 0o755 });
  return file;
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port P such that P and P + 1000 (the Web UI) are both free right now. */
export async function freePortPair(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if ((await portIsFree(port)) && (await portIsFree(port + 1000))) return port;
  }
  throw new Error('no free port pair found');
}
