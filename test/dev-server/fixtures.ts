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

/**
 * A project of its own for the compiled CLI: <root>/dist copied from this checkout's build, and
 * node_modules linked, so that the CLI's project root (and so its .thoughtline: database, start
 * lock, log) is <root>, not this checkout. Returns the CLI's path.
 */
export function isolatedCli(root: string): string {
  const repo = path.resolve(__dirname, '../..');
  const dist = path.join(repo, 'dist');
  if (!fs.existsSync(path.join(dist, 'cli/main.js')))
    throw new Error(`${dist} is missing: run "npm run build" first (npm test does).`);
  fs.cpSync(dist, path.join(root, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(root, 'package.json'), '{ "name": "isolated-thoughtline", "private": true }\n');
  fs.symlinkSync(fs.realpathSync(path.join(repo, 'node_modules')), path.join(root, 'node_modules'), 'dir');
  return path.join(root, 'dist/cli/main.js');
}

/** Environment for a CLI that must find or start its own server: none of the suite's settings. */
export function ownServerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of ['TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'])
    delete env[name];
  return { ...env, ...extra };
}
