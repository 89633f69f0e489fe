import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port.mjs';

const require = createRequire(import.meta.url);

/**
 * The restate-server binary itself, not the npm wrapper in .bin (a node process that spawns it):
 * so `pid` is the process doing the work and a kill reaches it.
 */
function serverBinary() {
  try {
    return require.resolve(`@restatedev/restate-server-${process.platform}-${process.arch}/bin/restate-server`);
  } catch {
    return path.join(
      path.dirname(require.resolve('@restatedev/restate-server/package.json')),
      '..',
      '..',
      '.bin',
      'restate-server',
    );
  }
}

/** Starts in all, for a server that exits while starting: a port picked free can be taken by a server starting beside it. */
const START_ATTEMPTS = 3;

/**
 * Starts a single-node restate-server with default settings on free ports, its data in a fresh
 * folder under workDir, and resolves once admin and ingress answer their health checks. A server
 * that exits during start-up is started again on fresh ports, up to START_ATTEMPTS times; the
 * error names each attempt's log and quotes the last one's end.
 * @returns {Promise<{ ingress: string, admin: string, pid: number, baseDir: string, stop(): Promise<void> }>}
 */
export async function startRestateServer({ workDir }) {
  const failures = [];
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(workDir);
    } catch (err) {
      if (!err.logPath) throw err;
      failures.push(err);
      if (!err.exitedEarly || attempt === START_ATTEMPTS) {
        const tail = logTail(err.logPath);
        const tried =
          failures.length > 1 ? ` (${failures.length} attempts: ${failures.map((f) => f.logPath).join(', ')})` : '';
        throw new Error(`${err.message}${tried}; see ${err.logPath}${tail ? `; its end:\n${tail}` : ''}`);
      }
    }
  }
}

/** The last lines of a log, for an error message; empty when it cannot be read. */
function logTail(file, lines = 15) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

async function startOnce(workDir) {
  const [ingressPort, adminPort, nodePort] = [await freePort(), await freePort(), await freePort()];
  const baseDir = fs.mkdtempSync(path.join(workDir, 'restate-'));
  const logFd = fs.openSync(path.join(baseDir, 'server.log'), 'a');
  const child = spawn(
    serverBinary(),
    ['--base-dir', baseDir, '--no-logo', '--listen-mode', 'tcp', '--node-name', 'bench'],
    {
      stdio: ['ignore', logFd, logFd], // stdout belongs to the engine's one reply line
      env: {
        ...process.env,
        RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingressPort}`,
        RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${adminPort}`,
        RESTATE_BIND_ADDRESS: `127.0.0.1:${nodePort}`,
        RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${nodePort}/`,
        RESTATE_DISABLE_TELEMETRY: 'true',
      },
    },
  );
  fs.closeSync(logFd);
  let exited = false;
  const exitedPromise = new Promise((resolve) => child.once('exit', () => resolve((exited = true))));
  // A crashed engine script must not leave the server behind.
  const killOnExit = () => !exited && child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const server = {
    ingress: `http://127.0.0.1:${ingressPort}`,
    admin: `http://127.0.0.1:${adminPort}`,
    pid: child.pid,
    baseDir,
    async stop() {
      process.off('exit', killOnExit);
      if (exited) return;
      child.kill('SIGTERM');
      const timedOut = await Promise.race([exitedPromise.then(() => false), sleep(5000).then(() => true)]);
      if (timedOut) child.kill('SIGKILL');
      await exitedPromise;
    },
  };
  try {
    await waitHealthy(server, () => exited);
  } catch (err) {
    const exitedEarly = exited;
    await server.stop();
    throw Object.assign(new Error(err.message), { exitedEarly, logPath: path.join(baseDir, 'server.log') });
  }
  return server;
}

/** Both endpoints up; the ingress reports healthy only once the node has provisioned itself. */
async function waitHealthy({ admin, ingress }, hasExited, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (hasExited()) throw new Error('restate-server exited during start-up');
    const [a, i] = await Promise.all([ok(`${admin}/health`), ok(`${ingress}/restate/health`)]);
    if (a && i) return;
    if (Date.now() > deadline) throw new Error(`restate-server not healthy after ${timeoutMs} ms`);
    await sleep(100);
  }
}

const ok = (url) =>
  fetch(url)
    .then((res) => res.ok)
    .catch(() => false);
