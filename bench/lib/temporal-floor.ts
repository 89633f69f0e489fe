import { randomUUID } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import type { BenchContext } from './bench-context';
import { historyTiming, type HistoryTiming } from './history-timing';
import { rawLoopActivities } from './raw-loop-activities';
import { rawLoopBundleCode } from './raw-loop-bundle';

/**
 * Per-iteration time of the loop written directly on the Temporal SDK (raw-loop-workflow.ts), on
 * the same server with the SDK's default worker options: what any Temporal-based agent pays
 * before its own code runs. Same protocol as the Thoughtline side: warm-up runs, then timed ones.
 */
export async function measureTemporalFloor(ctx: BenchContext, opts: { iterations: number; runs: number; warmup: number }): Promise<{ samples: number[]; lastRun?: HistoryTiming }> {
  const taskQueue = `bench-raw-${randomUUID()}`;
  const worker = await Worker.create({
    connection: ctx.nativeConnection,
    namespace: ctx.server.namespace,
    taskQueue,
    workflowBundle: { code: await rawLoopBundleCode() },
    activities: rawLoopActivities(),
  });
  return worker.runUntil(async () => {
    const samples: number[] = [];
    let workflowId = '';
    for (let i = 0; i < opts.warmup + opts.runs; i++) {
      const started = performance.now();
      workflowId = `raw-${randomUUID()}`;
      await ctx.client.workflow.execute('rawLoop', { taskQueue, workflowId, args: [opts.iterations] });
      if (i >= opts.warmup) samples.push((performance.now() - started) / opts.iterations);
    }
    return { samples, lastRun: historyTiming(await ctx.client.workflow.getHandle(workflowId).fetchHistory()) };
  });
}
