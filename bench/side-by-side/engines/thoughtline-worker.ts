import { loadPeerLib } from './peer-loop-lib';
import { installQuietRuntime } from '../../lib/bench-context';
import { loopWorker, type TemporalInfra } from './thoughtline-setup';

/** The recover scenario's worker process: serves the loop on one queue until it is killed. */
interface WorkerArgs {
  temporal: TemporalInfra & { bundlePath: string };
  taskQueue: string;
  marksDir: string;
  iterations: number;
  modelDelayMs: number;
  slowAt?: number;
  slowToolMs?: number;
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '{}') as WorkerArgs;
  const lib = await loadPeerLib();
  installQuietRuntime();
  const { worker } = await loopWorker(args.temporal, args.temporal.bundlePath, args.taskQueue, {
    script: lib.script,
    marks: lib.createMarks(args.marksDir),
    iterations: args.iterations,
    modelDelayMs: args.modelDelayMs,
    observationBytes: 64,
    ...(args.slowAt !== undefined ? { slowAt: args.slowAt } : {}),
    ...(args.slowToolMs !== undefined ? { slowToolMs: args.slowToolMs } : {}),
  });
  await worker.run();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
