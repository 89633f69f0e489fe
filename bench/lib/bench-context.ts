import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { findProjectRoot } from '../../src/dev-server/project-paths';
import { bundlerOptionsWith, WORKFLOWS_PATH } from '../../src/worker';
import { startBenchServer, type BenchServer } from './bench-server';

/**
 * BENCH_WORKFLOW_STACK_TRACES=off: the bench's bundle is built as a worker with
 * `workflowStackTraces: false` builds its own, and the Thoughtline engine's title says so.
 */
export const benchStackTraces = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env['BENCH_WORKFLOW_STACK_TRACES'] !== 'off';

/** What every figure gets: one server, connections to it, and one workflow bundle. */
export interface BenchContext {
  server: BenchServer;
  client: Client;
  nativeConnection: NativeConnection;
  /** The workflow bundle on disk, so worker child processes can load the same one. */
  bundlePath: string;
  projectRoot: string;
  log(line: string): void;
  close(): Promise<void>;
}

/** Webpack's progress lines are noise next to the figures; errors still show. */
export const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };

/**
 * Worker lifecycle chatter at INFO would bury the figures; the SDK's warnings still show. The
 * core's payload-size warnings would repeat on every long run: the history figure reports the
 * largest event instead. No shutdown signals: the runner handles SIGINT/SIGTERM itself, stopping
 * the server rather than going on.
 */
export function installQuietRuntime(): void {
  Runtime.install({
    logger: new DefaultLogger('WARN'),
    shutdownSignals: [],
    telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'WARN' } } },
  });
}

export async function createBenchContext(
  log: (line: string) => void,
  given?: { address: string; namespace: string },
): Promise<BenchContext> {
  installQuietRuntime();
  const projectRoot = findProjectRoot();
  const server = await startBenchServer(log, given);
  const connection = await Connection.connect({ address: server.address });
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  // Bundled once: webpack takes seconds, and no figure should pay for it.
  const dir = path.join(projectRoot, '.thoughtline', 'tmp');
  fs.mkdirSync(dir, { recursive: true });
  const bundlePath = path.join(dir, `bench-bundle-${process.pid}.js`);
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    ...bundlerOptionsWith({ workflowStackTraces: benchStackTraces() }),
    logger: quietLogger,
  });
  fs.writeFileSync(bundlePath, code);
  return {
    server,
    client: new Client({ connection, namespace: server.namespace }),
    nativeConnection,
    bundlePath,
    projectRoot,
    log,
    close: async () => {
      await connection.close();
      await nativeConnection.close();
      await server.stop();
      fs.rmSync(bundlePath, { force: true });
    },
  };
}
