import { execFileSync, spawn } from 'node:child_process';
import { startTestServer, type TestServer } from '../../src/dev-server';
import { ensureSearchAttributesReady } from '../../src/dev-server/cluster';

/**
 * The server the whole suite runs on: the one THOUGHTLINE_TEST_TEMPORAL_ADDRESS names (a cluster,
 * `npm run test:cluster`), in THOUGHTLINE_TEST_TEMPORAL_NAMESPACE (default 'default'), with
 * Thoughtline's search attributes registered there and usable before any test starts; else an
 * in-memory dev server of its own. Only a server it started is stopped at the end.
 */
export async function startSuiteServer(log: (line: string) => void): Promise<TestServer> {
  const address = process.env.THOUGHTLINE_TEST_TEMPORAL_ADDRESS;
  if (!address) return withWatchdog(await startTestServer({ log }));
  const namespace = process.env.THOUGHTLINE_TEST_TEMPORAL_NAMESPACE || 'default';
  const added = await ensureSearchAttributesReady({ address }, namespace, { timeoutMs: 120_000 });
  if (added.length > 0) log(`registered search attributes ${added.join(', ')} in namespace ${namespace}`);
  log(`running on the server at ${address} (namespace ${namespace}) from THOUGHTLINE_TEST_TEMPORAL_ADDRESS`);
  return { address, namespace, stop: async () => {} };
}

/** The pids of this process's `temporal server start-dev` children (the SDK spawns the server, and keeps its pid). */
export function ownDevServerPids(): number[] {
  const table = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return table
    .split('\n')
    .map((row) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(row))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[2]) === process.pid && m[3]!.includes(' start-dev'))
    .map((m) => Number(m[1]));
}

/**
 * Stops the server when this process goes without its teardown: vitest interrupted (Ctrl-C,
 * SIGTERM) exits without running global teardowns, and the SDK's server outlives it, holding its
 * port and memory. A detached shell polls this process each second and kills the server once it
 * is gone; a normal stop ends the shell first.
 */
function withWatchdog(server: TestServer): TestServer {
  const pids = ownDevServerPids();
  if (pids.length === 0) return server;
  const watchdog = spawn(
    'sh',
    ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill ${pids.join(' ')} 2>/dev/null`],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  return {
    ...server,
    stop: async () => {
      watchdog.kill('SIGKILL');
      await server.stop();
    },
  };
}
