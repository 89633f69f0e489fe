import { Worker, type WorkerOptions } from '@temporalio/worker';
import type { BenchContext } from './bench-context';
import { rawLoopActivities } from './raw-loop-activities';

/** A worker for the loop written on the bare SDK (raw-loop-workflow.ts, bundled as `code`) on the bench's server. */
export function bareLoopWorker(
  ctx: BenchContext,
  taskQueue: string,
  code: string,
  options: Partial<WorkerOptions> = {},
): Promise<Worker> {
  return Worker.create({
    connection: ctx.nativeConnection,
    namespace: ctx.server.namespace,
    taskQueue,
    workflowBundle: { code },
    activities: rawLoopActivities(),
    ...options,
  });
}
