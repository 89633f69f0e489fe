import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../src/dev-server/probes/free-port';

const SCRIPT = path.join(__dirname, 'servers/task-server.mjs');

/** What the task server says it saw (GET /stats). */
export interface TaskServerStats {
  created: number;
  gets: number;
  cancels: number;
  sessions: number;
  released: string[];
  cancelled: string[];
  authorized: number;
  refused: number;
  tokens: number;
}

export interface TaskServer {
  url: string;
  /** Its OAuth token endpoint (client credentials). */
  tokenUrl: string;
  stats(): Promise<TaskServerStats>;
  /** Finishes every `slow_report` task started with `ms: -1`. */
  release(): Promise<void>;
  stop(): Promise<void>;
}

/** test/mcp/servers/task-server.mjs over Streamable HTTP on a free port; resolves once it listens. */
export async function startTaskServer(env: Record<string, string> = {}): Promise<TaskServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [SCRIPT], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`task server did not listen in 20 s: ${said}`)), 20_000);
    const hear = (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', hear);
    child.stderr!.on('data', hear);
    child.once('exit', (code) => reject(new Error(`task server exited (${code}): ${said}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/mcp`,
    tokenUrl: `${base}/token`,
    stats: async () => (await (await fetch(`${base}/stats`)).json()) as TaskServerStats,
    release: async () => void (await fetch(`${base}/release`, { method: 'POST' })),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
