import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/dev-server/probes/free-port';
import type { McpConfigInit } from '../../src/domain/tools/mcp-config';

const modules = path.resolve(__dirname, '../../node_modules/@modelcontextprotocol');
/** The reference servers from npm (devDependencies), run with this Node. */
export const FILESYSTEM_SERVER = path.join(modules, 'server-filesystem/dist/index.js');
export const EVERYTHING_SERVER = path.join(modules, 'server-everything/dist/index.js');

/** A folder with two files for the filesystem server to serve. */
export function sampleFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tl-mcp-'));
  writeFileSync(path.join(dir, 'notes.txt'), 'The launch is on Tuesday.\n');
  writeFileSync(path.join(dir, 'todo.md'), '# Todo\n- check the numbers\n');
  return dir;
}

/** Both reference servers over stdio: `fs` (filesystem, on `dir`) and `everything`. */
export function stdioConfig(dir: string, extra: Partial<Record<'fs' | 'everything', object>> = {}): McpConfigInit {
  return {
    mcpServers: {
      fs: { command: process.execPath, args: [FILESYSTEM_SERVER, dir], ...extra.fs },
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], ...extra.everything },
    },
  };
}

export interface HttpServer {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** server-everything over Streamable HTTP on a free port; resolves once it listens. */
export async function startEverythingHttp(): Promise<HttpServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING_SERVER, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server-everything did not listen on ${port} in 20 s: ${said}`)),
      20_000,
    );
    child.stderr!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${said}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
