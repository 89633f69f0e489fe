import { randomUUID } from 'node:crypto';
import { AgentClient } from '../src/client/agent-client';
import type { AgentResult } from '../src/domain';
import { benchRun } from './lib/bench-model';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { BENCH_MODEL } from './lib/bench-worker';
import { errorText, measurement, type FigureBody, type Measurement } from './lib/figure';
import { historyTiming, meanTiming } from './lib/history-timing';
import { iterationIntervals } from './lib/iteration-intervals';
import { cpuByProgram, readProcessCpu } from './lib/cpu-by-program';
import { machineCpu } from './lib/machine-cpu';
import { mapLimit } from './lib/map-limit';
import { listExecutions, waitUntilAllClosed } from './lib/queue-executions';
import { scaleWorkerOptions } from './lib/scale-worker-options';
import { forkScaleWorker, type ScaleWorkerProcess } from './lib/scale-worker-process';
import type { ScaleWorkerMessage } from './lib/scale-worker';
import { ratio, summarise } from './lib/stats';

/** Starting and checking runs: enough requests in flight to keep the server busy, not to flood it. */
const CLIENT_CONCURRENCY = 50;
/** Histories read for iteration latencies and where a run's time went. */
const HISTORY_SAMPLE = 100;

interface Load {
  workers: number;
  finishMs: number;
  iterationMs: number[];
  details: Record<string, unknown>;
  errors: string[];
}

/**
 * Figure 2b: the scale figure's runs (N runs started together, each `iterations` model calls of
 * `modelMs`) on one worker process, then on two polling the same task queue. Reports throughput,
 * the latency of one iteration (model call scheduled to the next one scheduled, from a sample of
 * histories), and where the machine's CPU went, to say what bounds the throughput. Against the
 * dev server by default; `npm run bench:cluster` points it at a cluster (BENCH_TEMPORAL_ADDRESS).
 */
export async function measureWorkers(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const o = config.workers;
  const loads: Load[] = [];
  const errors: string[] = [];
  for (const workers of o.processes) {
    try {
      loads.push(await measureLoad(ctx, config, workers));
    } catch (err) {
      errors.push(`${workers} worker processes: ${errorText(err)}`);
    }
  }
  const measurements = loads.flatMap((load) => loadRows(load, o.runs, config.scale.iterations));
  const one = loads.find((l) => l.workers === 1);
  const two = loads.find((l) => l.workers === 2);
  if (one && two)
    measurements.push(
      measurement('throughput, 2 worker processes / 1', ratio(one.finishMs, two.finishMs), 'x', {
        note: 'above 1: the second process helped',
      }),
    );
  return {
    measurements,
    details: {
      server: ctx.server.description,
      runs: o.runs,
      iterationsPerRun: config.scale.iterations,
      modelDelayMs: config.scale.modelMs,
      ...Object.fromEntries(loads.map((l) => [`workers${l.workers}`, l.details])),
    },
    errors: [...errors, ...loads.flatMap((l) => l.errors)],
  };
}

function loadRows(load: Load, runs: number, iterations: number): Measurement[] {
  const at = `${runs} runs, ${load.workers} worker process${load.workers === 1 ? '' : 'es'}:`;
  const seconds = load.finishMs / 1000;
  const latency = load.iterationMs.length ? summarise(load.iterationMs) : undefined;
  return [
    measurement(`${at} time to finish`, seconds, 's'),
    measurement(`${at} throughput`, runs / seconds, 'runs/s'),
    measurement(`${at} iterations per second`, (runs * iterations) / seconds, 'it/s'),
    measurement(`${at} one iteration, p50`, latency?.p50, 'ms'),
    measurement(`${at} one iteration, p95`, latency?.p95, 'ms'),
  ];
}

/** N runs on `workers` fresh worker processes sharing one task queue. */
async function measureLoad(ctx: BenchContext, config: BenchConfig, workers: number): Promise<Load> {
  const { runs } = config.workers;
  const { iterations, modelMs, timeoutMs, nodeArgs } = config.scale;
  const taskQueue = `bench-workers-${workers}-${randomUUID()}`;
  const spec = {
    address: ctx.server.address,
    namespace: ctx.server.namespace,
    taskQueue,
    side: 'thoughtline' as const,
    bundlePath: ctx.bundlePath,
    modelDelayMs: modelMs,
    // Each process is sized for its share of the runs, as an operator would split them.
    workerOptions: { ...scaleWorkerOptions(Math.ceil(runs / workers)), ...config.scale.workerOptions },
  };
  const processes: ScaleWorkerProcess[] = [];
  try {
    for (let i = 0; i < workers; i++) processes.push(await forkScaleWorker(spec, nodeArgs));
    const agents = new AgentClient({ client: ctx.client, taskQueue });
    ctx.log(`workers: ${runs} runs x ${iterations} iterations on ${workers} worker processes`);
    const cpuBefore = machineCpu();
    const processesBefore = readProcessCpu();
    const ownBefore = process.cpuUsage();
    const t0 = Date.now();
    const handles = await mapLimit(runs, CLIENT_CONCURRENCY, () =>
      agents.start({ ...benchRun({ iterations: iterations - 1 }), model: BENCH_MODEL, maxIterations: iterations + 1 }),
    );
    await Promise.race([
      waitUntilAllClosed(ctx.client, taskQueue, runs, t0 + timeoutMs),
      ...processes.map((p) => p.died),
    ]);
    const cpuAfter = machineCpu();
    const byProgram = cpuByProgram(processesBefore, readProcessCpu());
    const own = process.cpuUsage(ownBefore);
    const executions = await listExecutions(ctx.client, taskQueue);
    const finishMs = Math.max(...executions.map((e) => e.closeTime?.getTime() ?? Number.NaN)) - t0;
    const results = await mapLimit(handles.length, CLIENT_CONCURRENCY, (i) => handles[i]!.result());
    const failed = results.filter((r: AgentResult) => r.terminationReason !== 'success' || r.iterations !== iterations);
    const sampled = handles.filter((_, i) => i % Math.ceil(handles.length / HISTORY_SAMPLE) === 0);
    const histories = await mapLimit(sampled.length, 10, (i) => sampled[i]!.fetchHistory());
    const stopped = await Promise.all(processes.map((p) => p.stop()));
    const perWorkerMs = stopped.map((s, i) => s && cpuSinceReady(processes[i]!, s));
    const workerCpuMs = perWorkerMs.reduce<number>((sum, ms) => sum + (ms ?? 0), 0);
    const busyMs = cpuAfter.busyMs - cpuBefore.busyMs;
    const clientMs = (own.user + own.system) / 1000;
    return {
      workers,
      finishMs,
      iterationMs: histories.flatMap((h) => iterationIntervals(h)),
      details: {
        finishMs,
        failedRuns: failed.length,
        workerOptionsGiven: spec.workerOptions,
        meanRunTimingMs: meanTiming(histories.map(historyTiming)),
        runsSampled: histories.length,
        // Where the CPU went while the runs ran: the machine's busy time split into the workers',
        // this runner's (starting and counting runs) and the rest (the Temporal server, its
        // database, anything else on the machine).
        cpu: {
          machineBusyShare: busyMs / (cpuAfter.totalMs - cpuBefore.totalMs),
          workersMs: workerCpuMs,
          benchClientMs: clientMs,
          serverAndRestMs: busyMs - workerCpuMs - clientMs,
          perWorkerProcessMs: perWorkerMs,
          // The same window by program name: the server's processes (temporal-server, or the dev
          // server's temporal), PostgreSQL's, the node processes (workers, this runner, anything else).
          byProgramMs: byProgram.slice(0, 8),
        },
      },
      errors: failed.length
        ? [
            `${workers} worker processes: ${failed.length} of ${runs} runs did not finish with ${iterations} model calls`,
          ]
        : [],
    };
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
  }
}

/** A worker process's CPU from ready (its bundle loaded) to stopped: the runs' own. */
function cpuSinceReady(p: ScaleWorkerProcess, stopped: Extract<ScaleWorkerMessage, { type: 'stopped' }>): number {
  return stopped.cpuUserMs + stopped.cpuSystemMs - p.ready.cpuUserMs - p.ready.cpuSystemMs;
}
