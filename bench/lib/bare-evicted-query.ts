import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import type { WorkerOptions } from '@temporalio/worker';
import { bareLoopWorker } from './bare-loop-worker';
import type { BenchContext } from './bench-context';
import { rawLoopBundleCode } from './raw-loop-bundle';
import { rawDoneQuery } from './raw-loop-workflow';
import { runLimitMs } from './within';

export interface BareEvictedQuery {
  iterations: number;
  /** The bare run's history length, to compare with the Thoughtline run's. */
  events: number;
  samplesMs: number[];
}

/**
 * The floor under the evicted `chain` query: a query to the loop written on the bare SDK
 * (rawLoopThenWait), open after `iterations` iterations, answered by a worker with no cache, so
 * each query fetches the history and replays it, as for the Thoughtline run. Same server, same
 * sequence: one worker runs the loop, then a cacheless one answers `queries` queries.
 */
export async function measureBareEvictedQuery(
  ctx: BenchContext,
  o: { iterations: number; queries: number },
): Promise<BareEvictedQuery> {
  const code = await rawLoopBundleCode();
  const taskQueue = `bench-raw-query-${randomUUID()}`;
  const workflowId = `bench-raw-query-${randomUUID()}`;
  const worker = (options: Partial<WorkerOptions>) => bareLoopWorker(ctx, taskQueue, code, options);
  await (
    await worker({})
  ).runUntil(async () => {
    const handle = await ctx.client.workflow.start('rawLoopThenWait', { taskQueue, workflowId, args: [o.iterations] });
    const deadline = Date.now() + runLimitMs(o.iterations);
    while ((await handle.query(rawDoneQuery)) < o.iterations) {
      if (Date.now() > deadline) throw new Error(`the bare loop did not finish ${o.iterations} iterations in time`);
      await sleep(100);
    }
  });
  return (await worker({ maxCachedWorkflows: 0 })).runUntil(async () => {
    const handle = ctx.client.workflow.getHandle(workflowId);
    const samplesMs: number[] = [];
    for (let i = 0; i < o.queries; i++) {
      const started = performance.now();
      await handle.query(rawDoneQuery);
      samplesMs.push(performance.now() - started);
    }
    const { historyLength } = await handle.describe();
    await handle.terminate('benchmark done');
    return { iterations: o.iterations, events: historyLength, samplesMs };
  });
}
