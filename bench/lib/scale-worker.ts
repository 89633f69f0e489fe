import { DefaultLogger, NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { createAgentWorker } from '../../src/worker';
import { createBenchModel } from './bench-model';
import { benchTool } from './bench-tools';
import { rawLoopActivities } from './raw-loop-activities';
import { workerSettings } from './worker-settings';

/** Whose worker: Thoughtline's agent worker, or the same loop written on the bare SDK. */
export type ScaleSide = 'thoughtline' | 'bare';

/** What the parent passes, as JSON in argv[2]. */
export interface ScaleWorkerSpec {
  address: string;
  namespace: string;
  taskQueue: string;
  side: ScaleSide;
  /** The side's workflow bundle: Thoughtline's, or raw-loop-workflow's. */
  bundlePath: string;
  modelDelayMs: number;
  workerOptions: Partial<WorkerOptions>;
}

/** Messages to the parent over IPC. */
export type ScaleWorkerMessage =
  | { type: 'ready'; settings: Record<string, unknown>; cpuUserMs: number; cpuSystemMs: number }
  | { type: 'memory'; rssBytes: number; heapUsedBytes: number }
  | { type: 'stopped'; maxRssBytes: number; cpuUserMs: number; cpuSystemMs: number };

const send = (message: ScaleWorkerMessage): void => void process.send?.(message);

/**
 * Entry of the scale figure's worker process: one worker (Thoughtline's, or the bare loop's),
 * alone in its process so its peak RSS and CPU time are its own. Runs until the parent sends
 * 'stop', then reports both (getrusage).
 */
async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as ScaleWorkerSpec;
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
  const connection = await NativeConnection.connect({ address: spec.address });
  const worker = spec.side === 'bare' ? await bareWorker(spec, connection) : await thoughtlineWorker(spec, connection);
  let finished = false;
  process.on('message', (message) => {
    if (message === 'stop') worker.shutdown();
    // After a full collection where the process allows one (--expose-gc): what is really held.
    if (message === 'memory') {
      (globalThis as { gc?: () => void }).gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      send({ type: 'memory', rssBytes: rss, heapUsedBytes: heapUsed });
    }
  });
  // The parent is gone (crashed or killed): nobody will read the figures, so do not linger.
  process.once('disconnect', () => finished || process.exit(1));
  const running = worker.run();
  // CPU from here on is the runs' own: start-up (loading the bundle) differs between the sides.
  const ready = process.resourceUsage();
  send({
    type: 'ready',
    settings: workerSettings(worker),
    cpuUserMs: ready.userCPUTime / 1000,
    cpuSystemMs: ready.systemCPUTime / 1000,
  });
  await running;
  await connection.close();
  finished = true;
  const usage = process.resourceUsage();
  send({
    type: 'stopped',
    maxRssBytes: usage.maxRSS * 1024,
    cpuUserMs: usage.userCPUTime / 1000,
    cpuSystemMs: usage.systemCPUTime / 1000,
  });
  process.disconnect?.();
}

function thoughtlineWorker(spec: ScaleWorkerSpec, connection: NativeConnection): Promise<Worker> {
  return createAgentWorker({
    connection,
    namespace: spec.namespace,
    taskQueue: spec.taskQueue,
    tools: [benchTool()],
    models: { scripted: createBenchModel({ delayMs: spec.modelDelayMs }) },
    workflowBundle: { codePath: spec.bundlePath },
    workerOptions: spec.workerOptions,
  });
}

function bareWorker(spec: ScaleWorkerSpec, connection: NativeConnection): Promise<Worker> {
  return Worker.create({
    ...spec.workerOptions,
    connection,
    namespace: spec.namespace,
    taskQueue: spec.taskQueue,
    workflowBundle: { codePath: spec.bundlePath },
    activities: rawLoopActivities(spec.modelDelayMs),
  });
}

main().catch((err: unknown) => {
  console.error('scale worker failed:', err);
  process.exit(1);
});
