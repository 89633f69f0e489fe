import { DefaultLogger, NativeConnection, Runtime, type WorkerOptions } from '@temporalio/worker';
import { createAgentWorker } from '../../src/worker';
import { createBenchModel } from './bench-model';
import { benchTool } from './bench-tools';
import { workerSettings } from './worker-settings';

/** What the parent passes, as JSON in argv[2]. */
export interface ScaleWorkerSpec {
  address: string;
  namespace: string;
  taskQueue: string;
  bundlePath: string;
  modelDelayMs: number;
  workerOptions: Partial<WorkerOptions>;
}

/** Messages to the parent over IPC. */
export type ScaleWorkerMessage =
  | { type: 'ready'; settings: Record<string, unknown> }
  | { type: 'memory'; rssBytes: number; heapUsedBytes: number }
  | { type: 'stopped'; maxRssBytes: number; cpuUserMs: number; cpuSystemMs: number };

const send = (message: ScaleWorkerMessage): void => void process.send?.(message);

/**
 * Entry of the scale figure's worker process: one agent worker, alone in its process so its peak
 * RSS and CPU time are its own. Runs until the parent sends 'stop', then reports both (getrusage).
 */
async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as ScaleWorkerSpec;
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
  const connection = await NativeConnection.connect({ address: spec.address });
  const worker = await createAgentWorker({
    connection,
    namespace: spec.namespace,
    taskQueue: spec.taskQueue,
    tools: [benchTool()],
    models: { scripted: createBenchModel({ delayMs: spec.modelDelayMs }) },
    workflowBundle: { codePath: spec.bundlePath },
    workerOptions: spec.workerOptions,
  });
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
  send({ type: 'ready', settings: workerSettings(worker) });
  await running;
  await connection.close();
  finished = true;
  const usage = process.resourceUsage();
  send({ type: 'stopped', maxRssBytes: usage.maxRSS * 1024, cpuUserMs: usage.userCPUTime / 1000, cpuSystemMs: usage.systemCPUTime / 1000 });
  process.disconnect?.();
}

main().catch((err: unknown) => {
  console.error('scale worker failed:', err);
  process.exit(1);
});
