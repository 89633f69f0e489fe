import { randomUUID } from 'node:crypto';
import type { Worker } from '@temporalio/worker';
import { bareLoopWorker } from './bare-loop-worker';
import type { BenchContext } from './bench-context';
import { historyTiming, type HistoryTiming } from './history-timing';
import { rawLoopBundleCode } from './raw-loop-bundle';

/** The loop written directly on the Temporal SDK, ready to run: what any Temporal-based agent pays before its own code runs. */
export interface TemporalFloor {
  /** One run of `iterations` iterations (and the finishing model call); its wall time per iteration, in ms. */
  run(): Promise<number>;
  /** Where the last run's time went, from its history. */
  lastRun(): Promise<HistoryTiming | undefined>;
}

/**
 * Runs `body` with a worker for the bare loop (raw-loop-workflow.ts) polling on the same server,
 * with the SDK's default worker options, so the figure can time its runs in alternation with
 * Thoughtline's: drift in the machine's load then falls on both sides alike. When that worker
 * cannot start, runs `without` instead, with the reason.
 */
export async function withTemporalFloor<T>(
  ctx: BenchContext,
  iterations: number,
  body: (floor: TemporalFloor) => Promise<T>,
  without: (err: unknown) => Promise<T>,
): Promise<T> {
  const taskQueue = `bench-raw-${randomUUID()}`;
  let worker: Worker;
  try {
    worker = await bareLoopWorker(ctx, taskQueue, await rawLoopBundleCode());
  } catch (err) {
    return without(err);
  }
  let workflowId: string | undefined;
  return worker.runUntil(() =>
    body({
      async run() {
        const started = performance.now();
        workflowId = `raw-${randomUUID()}`;
        await ctx.client.workflow.execute('rawLoop', { taskQueue, workflowId, args: [iterations] });
        return (performance.now() - started) / iterations;
      },
      async lastRun() {
        return workflowId === undefined
          ? undefined
          : historyTiming(await ctx.client.workflow.getHandle(workflowId).fetchHistory());
      },
    }),
  );
}
