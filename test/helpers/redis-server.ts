import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { freePort } from '../../src/dev-server/probes/free-port';
import { pollFor } from './approval-helpers';
import { ensureDebianProgram } from './debian-package';

/** A throwaway redis-server of one test file: Debian's, on a loopback port of its own, nothing persisted. */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`, for THOUGHTLINE_EVENTS or createRedisBus. */
  readonly url: string;
  /** The running server's process id, while it runs (the soak samples its memory). */
  readonly pid: number | undefined;
  /** Starts it again on the same port (after `stop`); resolves once it accepts connections. */
  start(): Promise<void>;
  /** SIGKILLs the process this helper started, if it runs; resolves once it has exited. */
  stop(): Promise<void>;
}

/** Installs redis-server if missing (Debian's package), starts it, and resolves once it accepts connections. */
export async function startRedisServer(): Promise<RedisServer> {
  const program = ensureDebianProgram('redis-server');
  const port = await freePort();
  let proc: ChildProcess | undefined;
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return proc?.exitCode === null ? proc.pid : undefined;
    },
    async start() {
      proc = spawn(program, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
      await pollFor('redis-server to accept connections', () => accepts(port), 10_000, 50);
    },
    async stop() {
      const running = proc;
      proc = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((r) => running.once('exit', r));
      running.kill('SIGKILL');
      await exited;
    },
  };
  await server.start();
  return server;
}

function accepts(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
    socket.on('error', () => resolve(undefined));
  });
}
