import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { waitForNamespace } from './probes/check-namespace';
import { setNamespaceRetention } from './probes/namespace-retention';
import { devServerArgs } from './dev-server-args';
import { isReachable } from './probes/is-reachable';
import { thoughtlinePaths } from './project-paths';
import type { TemporalServer } from './temporal-server';
import { waitForSearchAttributes } from './probes/wait-for-search-attributes';

const READY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 10_000;

export interface StartDevServerOptions {
  cli: string;
  projectRoot: string;
  port: number;
  namespace: string;
  detached: boolean;
  /** Days closed runs are kept (THOUGHTLINE_RETENTION_DAYS, default 90). */
  retentionDays: number;
  log: (line: string) => void;
}

async function waitForListedAttributes(address: string, namespace: string, names: string[]): Promise<void> {
  const connection = await Connection.connect({ address, connectTimeout: 2000 });
  try {
    await waitForSearchAttributes(connection, namespace, names, { timeoutMs: READY_TIMEOUT_MS });
  } finally {
    await connection.close();
  }
}

function tail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Spawns `temporal server start-dev` with a persistent db under <projectRoot>/.thoughtline and
 * waits until the namespace answers. Output goes to a log file, not through `log`: shutdown
 * alone prints dozens of harmless warnings.
 */
export async function startDevServer(o: StartDevServerOptions): Promise<TemporalServer> {
  const paths = thoughtlinePaths(o.projectRoot, o.port);
  fs.mkdirSync(path.dirname(paths.dbFile), { recursive: true });
  const address = `127.0.0.1:${o.port}`;
  const uiUrl = `http://localhost:${o.port + 1000}`;
  const args = devServerArgs({ port: o.port, uiPort: o.port + 1000, dbFile: paths.dbFile, namespace: o.namespace });
  o.log(
    `no Temporal server on ${address}; starting ${o.detached ? 'a detached' : 'a'} dev server: ${o.cli} ${args.join(' ')}`,
  );
  o.log(`server output goes to ${paths.logFile}`);

  const logFd = fs.openSync(paths.logFile, 'a');
  const child = spawn(o.cli, args, { detached: o.detached, stdio: ['ignore', logFd, logFd] });
  fs.closeSync(logFd);
  // The server never keeps this process alive; in the foreground it is killed when we exit.
  child.unref();
  let exitReason: string | undefined;
  child.once('error', (err) => (exitReason = `could not start ${o.cli}: ${err.message}`));
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve((exitReason ??= `the server exited (${signal ?? `code ${code}`})`))),
  );
  const killOnExit = (): void => void child.kill('SIGTERM');
  if (!o.detached) process.once('exit', killOnExit);

  try {
    const missing = await waitForNamespace(address, o.namespace, {
      timeoutMs: READY_TIMEOUT_MS,
      gaveUp: () => exitReason,
    });
    // Registered by --search-attribute, but a server may answer before it lists them: a run started then fails.
    if (missing.length > 0) await waitForListedAttributes(address, o.namespace, missing);
  } catch (err) {
    child.kill('SIGTERM');
    process.removeListener('exit', killOnExit);
    // Another process (a parallel test worker, a second CLI) may have won the race for the port.
    if (exitReason && (await isReachable(address))) {
      o.log(`another Temporal server took ${address} while ours was starting; using that one`);
      return {
        address,
        endpoint: { address },
        namespace: o.namespace,
        uiUrl,
        source: 'already-running',
        stop: async () => {},
      };
    }
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(
      `Temporal dev server did not come up: ${message}\nlast lines of ${paths.logFile}:\n${tail(paths.logFile)}`,
    );
  }

  const days = await setNamespaceRetention({ address }, o.namespace, o.retentionDays);
  o.log(
    `Temporal dev server ready at ${address} (namespace ${o.namespace}, closed runs kept ${days} days); Web UI: ${uiUrl}`,
  );
  if (o.detached) {
    fs.writeFileSync(paths.pidFile, `${child.pid}\n`);
    o.log(`it keeps running after this process exits; stop it with: kill $(cat ${paths.pidFile})`);
    return { address, endpoint: { address }, namespace: o.namespace, uiUrl, source: 'started', stop: async () => {} };
  }
  return {
    address,
    endpoint: { address },
    namespace: o.namespace,
    uiUrl,
    source: 'started',
    stop: () => stopChild(),
    exited,
  };

  async function stopChild(): Promise<void> {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
}
