import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, type Worker } from '@temporalio/worker';
import { AgentClient } from '../../../src/client/agent-client';
import { bundlerOptionsWith, createAgentWorker, WORKFLOWS_PATH } from '../../../src/worker';
import { benchStackTraces, quietLogger } from '../../lib/bench-context';
import { loopModel, loopTool, type LoopSettings } from './thoughtline-loop';

/** Where the engine finds Temporal, from the runner's request. */
export interface TemporalInfra {
  address: string;
  namespace: string;
  /** A workflow bundle the runner made once; without it the engine bundles its own. */
  bundlePath?: string;
}

export async function bundlePathFor(infra: TemporalInfra, workDir: string): Promise<string> {
  if (infra.bundlePath) return infra.bundlePath;
  fs.mkdirSync(workDir, { recursive: true });
  const file = path.join(workDir, `thoughtline-bundle-${process.pid}.js`);
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    ...bundlerOptionsWith({ workflowStackTraces: benchStackTraces() }),
    logger: quietLogger,
  });
  fs.writeFileSync(file, code);
  return file;
}

/** An agent worker serving the loop's model and tool on `taskQueue`, SDK default options. */
export async function loopWorker(
  infra: TemporalInfra,
  bundlePath: string,
  taskQueue: string,
  settings: LoopSettings,
): Promise<{ worker: Worker; connection: NativeConnection; close(): Promise<void> }> {
  const connection = await NativeConnection.connect({ address: infra.address });
  const worker = await createAgentWorker({
    connection,
    namespace: infra.namespace,
    taskQueue,
    tools: [loopTool(settings)],
    models: { scripted: loopModel(settings) },
    workflowBundle: { codePath: bundlePath },
    workflowStackTraces: benchStackTraces(),
    workerOptions: withHandicap(traceOptions()),
  });
  return { worker, connection, close: () => connection.close() };
}

/**
 * The runs' client. Given the worker's NativeConnection (worker and client in one process, as the
 * loop and concurrent scenarios run), AgentClient starts each run eagerly on that worker.
 */
export async function loopClient(
  infra: TemporalInfra,
  taskQueue: string,
  shared?: NativeConnection,
): Promise<{ agents: AgentClient; client: Client; close(): Promise<void> }> {
  const connection = shared ?? (await Connection.connect({ address: infra.address }));
  const client = new Client({ connection, namespace: infra.namespace });
  // A shared connection is the worker's to close.
  const close = shared ? async () => {} : () => connection.close();
  return { agents: new AgentClient({ client, taskQueue }), client, close };
}

/** Debug aid (gaps probe): BENCH_TRACE_FILE records each activity's execute window, innermost. */
function traceOptions(): Record<string, unknown> {
  const extra = JSON.parse(process.env['BENCH_WORKER_OPTIONS'] ?? '{}') as Record<string, unknown>;
  const file = process.env['BENCH_TRACE_FILE'];
  if (!file) return extra;
  const rows: Array<[string, number, number]> = [];
  const { performance } = require('node:perf_hooks') as typeof import('node:perf_hooks');
  const now = () => performance.timeOrigin + performance.now();
  setInterval(() => fs.writeFileSync(file, JSON.stringify(rows)), 1000).unref();
  process.on('exit', () => fs.writeFileSync(file, JSON.stringify(rows)));
  return {
    ...extra,
    interceptors: {
      activity: [
        (ctx: { info: { activityType: string } }) => ({
          inbound: {
            async execute(input: unknown, next: (i: unknown) => Promise<unknown>) {
              const t = now();
              try {
                return await next(input);
              } finally {
                rows.push([ctx.info.activityType, t, now()]);
              }
            },
          },
        }),
      ],
    },
  };
}

/**
 * The ratio gate's negative control (docs/benchmarks.md): BENCH_THOUGHTLINE_SPIN_MS busies the
 * worker's thread for that long after each activity, as slower code between steps would, so a
 * run shows what a costlier Thoughtline step does to the gate's ratios. Unset in every real run.
 */
function withHandicap(options: Record<string, unknown>): Record<string, unknown> {
  const ms = Number(process.env['BENCH_THOUGHTLINE_SPIN_MS'] ?? 0);
  if (!(ms > 0)) return options;
  const spin = {
    inbound: {
      async execute(input: unknown, next: (i: unknown) => Promise<unknown>) {
        const result = await next(input);
        for (const until = Date.now() + ms; Date.now() < until;);
        return result;
      },
    },
  };
  const earlier = (options['interceptors'] as { activity?: unknown[] } | undefined)?.activity ?? [];
  return { ...options, interceptors: { activity: [...earlier, () => spin] } };
}
