import { randomUUID } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { createWorkerRunEvents } from '../src/events/run-event-sinks';
import { benchRun, createBenchModel } from './lib/bench-model';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { benchTool } from './lib/bench-tools';
import { BENCH_MODEL, withBenchWorker } from './lib/bench-worker';
import { errorText, measurement, type FigureBody, type Measurement } from './lib/figure';
import { bareLoopWorker } from './lib/bare-loop-worker';
import { rawLoopBundleCode } from './lib/raw-loop-bundle';
import { runHistories, type RunHistory } from './lib/run-histories';
import { runLimitMs, within } from './lib/within';

/**
 * Figure 4: bytes of history per iteration and in all, for runs of several lengths and
 * observation sizes, summed over every Temporal run the agent run continued into; and how long
 * replaying the largest single history takes (what a worker pays to rebuild an evicted run).
 */
export async function measureHistory(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const cases = [];
  const errors: string[] = [];
  let largest: Picked | undefined;
  let longest: Picked | undefined;
  let smallest: Picked | undefined;
  const bareCode = await rawLoopBundleCode();
  for (const observationBytes of config.history.observationBytes) {
    for (const iterations of config.history.iterations) {
      ctx.log(`history: ${iterations} iterations with ${observationBytes}-byte observations`);
      // One case failing (e.g. a payload over Temporal's limits) is reported; the others still run.
      const c = await runCase(ctx, iterations, observationBytes).catch(
        (err: unknown) => void errors.push(`${iterations} iterations x ${observationBytes} bytes: ${errorText(err)}`),
      );
      if (!c) continue;
      c.bare = await bareCase(ctx, bareCode, iterations, observationBytes).catch(
        (err: unknown) =>
          void errors.push(`bare loop, ${iterations} iterations x ${observationBytes} bytes: ${errorText(err)}`),
      );
      for (const run of c.runs) {
        if (!largest || run.bytes > largest.run.bytes) largest = { workflowId: c.workflowId, run };
        if (!longest || run.events > longest.run.events) longest = { workflowId: c.workflowId, run };
        if (!smallest || run.bytes < smallest.run.bytes) smallest = { workflowId: c.workflowId, run };
      }
      cases.push(c);
    }
  }
  const rows: Measurement[] = cases.flatMap((c) => {
    const label = `${c.iterations} it. x ${kb(c.observationBytes)} obs.`;
    return [
      measurement(`${label}: history per iteration`, c.totalBytes / c.iterations / 1024, 'KB'),
      // What the iterations themselves record: the result and each handover (recorded as one run's end and the next's start) carry the chain instead.
      measurement(
        `${label}: history per iteration, results and handovers left out`,
        (c.totalBytes - c.carryingBytes) / c.iterations / 1024,
        'KB',
      ),
      measurement(
        `${label}: history in all (${c.runs.length} Temporal run${c.runs.length > 1 ? 's' : ''})`,
        c.totalBytes / 1e6,
        'MB',
      ),
      measurement(
        `${label}: what an iteration adds (model reply + tool result payloads)`,
        c.addedBytes / c.iterations / 1024,
        'KB',
      ),
      measurement(`${label}: ratio history / what the iterations add`, c.totalBytes / c.addedBytes, 'x', {
        target: ADDED_TARGET,
      }),
      measurement(
        `${label}: the same, results and handovers left out`,
        (c.totalBytes - c.carryingBytes) / c.addedBytes,
        'x',
      ),
      // The floor: the same loop on the bare SDK records its events and its payloads, nothing else.
      measurement(
        `${label}: the bare SDK loop's history per iteration`,
        c.bare && c.bare.totalBytes / c.iterations / 1024,
        'KB',
      ),
      measurement(
        `${label}: the bare SDK loop's ratio history / what its iterations add`,
        c.bare && c.bare.totalBytes / c.bare.addedBytes,
        'x',
      ),
    ];
  });
  const biggestEvent = Math.max(0, ...cases.map((c) => c.largestEventBytes));
  if (cases.length)
    rows.push(
      measurement('largest single event in any history (payloads are refused over 2 MB)', biggestEvent / 1e6, 'MB'),
    );
  // Replay cost follows events more than bytes; the smallest history shows the fixed cost of a replay worker.
  const replays: Array<{
    label: string;
    workflowId: string;
    runId: string;
    bytes: number;
    events: number;
    ms: number;
  }> = [];
  for (const [label, picked] of [
    ['largest history', largest],
    ['history with the most events', longest],
    ['smallest history', smallest],
  ] as const) {
    if (!picked || replays.some((r) => r.runId === picked.run.runId)) continue;
    const ms = await timeReplay(ctx, picked.workflowId, picked.run);
    replays.push({
      label,
      workflowId: picked.workflowId,
      runId: picked.run.runId,
      bytes: picked.run.bytes,
      events: picked.run.events,
      ms,
    });
    rows.push(
      measurement(
        `replay of the ${label} (${(picked.run.bytes / 1e6).toFixed(2)} MB, ${picked.run.events} events)`,
        ms,
        'ms',
      ),
    );
  }
  return {
    measurements: rows,
    errors,
    details: {
      cases,
      settings:
        'default worker options (cached); maxToolResultChars raised to twice the observation so none is cut; other inputs at their defaults (maxContextChars 150,000, continueAsNewAtBytes 2,000,000)',
      bytes: 'temporal.api.history.v1.History.encode(history).length, summed over the runs linked by continue-as-new',
      added:
        "what the iterations add: the payload bytes of every callModel and runTool result (the model's replies and the tools' observations)",
      replays,
      replayHow:
        'Worker.runReplayHistory with the same workflow bundle, one Temporal run each; includes creating the replay worker',
    },
  };
}

type Picked = { workflowId: string; run: RunHistory };

/** Issue 18: history per iteration at most twice the bytes the iteration adds. */
const ADDED_TARGET = { op: '<=', value: 2 } as const;

const kb = (bytes: number): string => `${Math.round(bytes / 1024)} KB`;

async function runCase(ctx: BenchContext, iterations: number, observationBytes: number) {
  return withBenchWorker(ctx, { model: createBenchModel(), tools: [benchTool(observationBytes)] }, async (agents) => {
    const started = performance.now();
    const handle = await agents.start({
      ...benchRun({ iterations }),
      model: BENCH_MODEL,
      maxIterations: iterations + 2,
      maxToolResultChars: observationBytes * 2,
    });
    const result = await within(handle.result(), runLimitMs(iterations), `run ${handle.workflowId}`);
    const wallMs = performance.now() - started;
    if (result.terminationReason !== 'success' || result.toolCalls !== iterations) {
      throw new Error(
        `run ${handle.workflowId} ended ${result.terminationReason} after ${result.toolCalls} tool calls: ${result.error ?? result.finalAnswer}`,
      );
    }
    const runs = await runHistories(ctx.client, handle.workflowId, (await handle.describe()).runId);
    const totalBytes = runs.reduce((sum, r) => sum + r.bytes, 0);
    return {
      iterations,
      observationBytes,
      workflowId: handle.workflowId,
      wallMs,
      continuations: result.continuations,
      totalBytes,
      totalEvents: runs.reduce((sum, r) => sum + r.events, 0),
      carryingBytes: runs.reduce((sum, r) => sum + r.carryingEventBytes, 0),
      addedBytes: runs.reduce((sum, r) => sum + r.addedBytes, 0),
      bytesPerIteration: totalBytes / iterations,
      largestEventBytes: Math.max(...runs.map((r) => r.largestEventBytes)),
      resultChainSteps: result.chain.steps.length,
      runs,
      /** The same loop on the bare SDK (bareCase), filled in by the caller. */
      bare: undefined as BareCase | undefined,
    };
  });
}

type BareCase = Awaited<ReturnType<typeof bareCase>>;

/** The bare SDK loop with the same iterations and observations, on a worker of its own; its history's size. */
async function bareCase(ctx: BenchContext, bundleCode: string, iterations: number, observationChars: number) {
  const taskQueue = `bench-history-bare-${randomUUID()}`;
  const worker = await bareLoopWorker(ctx, taskQueue, bundleCode);
  return worker.runUntil(async () => {
    const handle = await ctx.client.workflow.start('rawLoopObserving', {
      taskQueue,
      workflowId: `bench-history-bare-${randomUUID()}`,
      args: [iterations, observationChars],
    });
    await within(handle.result(), runLimitMs(iterations), `bare run ${handle.workflowId}`);
    const [run] = await runHistories(ctx.client, handle.workflowId, (await handle.describe()).runId, [
      'rawModel',
      'rawObservation',
    ]);
    return {
      workflowId: handle.workflowId,
      totalBytes: run!.bytes,
      events: run!.events,
      addedBytes: run!.addedBytes,
      byKind: run!.byKind,
    };
  });
}

async function timeReplay(ctx: BenchContext, workflowId: string, run: RunHistory): Promise<number> {
  const history = await ctx.client.workflow.getHandle(workflowId, run.runId).fetchHistory();
  const started = performance.now();
  // The run-event sink registered as on a real worker: a replay worker without it logs every call.
  await Worker.runReplayHistory(
    { workflowBundle: { codePath: ctx.bundlePath }, sinks: createWorkerRunEvents(undefined).sinks },
    history,
    workflowId,
  );
  return performance.now() - started;
}
