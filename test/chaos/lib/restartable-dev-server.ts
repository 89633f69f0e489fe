import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { devServerArgs, findOrInstallTemporalCli } from '../../../src/dev-server';
import { waitForNamespace } from '../../../src/dev-server/probes/check-namespace';

/**
 * A dev server of its own (not the suite's), with a persistent db file in `dir` and a fixed port,
 * that can be stopped by a signal and started again on the same db and port.
 */
export interface RestartableDevServer {
  readonly address: string;
  readonly namespace: string;
  /** Sends `signal` and resolves once the process has exited. */
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts it again; resolves once the namespace answers. */
  start(): Promise<void>;
}

const NAMESPACE = 'default';
const READY_TIMEOUT_MS = 60_000;

export async function startRestartableDevServer(dir: string): Promise<RestartableDevServer> {
  const cli = await findOrInstallTemporalCli({ log: () => {} });
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const args = [
    ...devServerArgs({ port, uiPort: port + 1000, dbFile: path.join(dir, 'temporal.db'), namespace: NAMESPACE }),
    '--headless',
  ];
  const logFile = path.join(dir, 'temporal-server.log');
  let child: ChildProcess | undefined;
  // Never outlive the test process, however it ends.
  process.once('exit', () => child?.kill('SIGKILL'));

  async function start(): Promise<void> {
    const logFd = fs.openSync(logFile, 'a');
    const started = spawn(cli, args, { stdio: ['ignore', logFd, logFd] });
    fs.closeSync(logFd);
    child = started;
    let exitReason: string | undefined;
    started.once(
      'exit',
      (code, signal) => (exitReason = `the dev server exited (${signal ?? `code ${code}`}); see ${logFile}`),
    );
    await waitForNamespace(address, NAMESPACE, { timeoutMs: READY_TIMEOUT_MS, gaveUp: () => exitReason });
  }

  await start();
  return {
    address,
    namespace: NAMESPACE,
    start,
    async stop(signal) {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.kill(signal);
      await exited;
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
