import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { AgentClient } from '../src/client/agent-client';
import type { AgentResult } from '../src/domain';
import { benchRun } from './lib/bench-model';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { BENCH_MODEL } from './lib/bench-worker';
import { historyTiming, meanTiming, type HistoryTiming } from './lib/history-timing';
import { errorText, measurement, type FigureBody, type Measurement } from './lib/figure';
import { mapLimit } from './lib/map-limit';
import { sampleRss } from './lib/rss-sampler';
import { writeRawLoopBundle } from './lib/raw-loop-bundle';
import type { ScaleSide, ScaleWorkerMessage, ScaleWorkerSpec } from './lib/scale-worker';
import { forkScaleWorker } from './lib/scale-worker-process';
import { listExecutions, waitUntilAllClosed } from './lib/queue-executions';
import { scaleWorkerOptions } from './lib/scale-worker-options';
import { median, summarise } from './lib/stats';

/** Starting and checking runs: enough requests in flight to keep the server busy, not to flood it. */
const CLIENT_CONCURRENCY = 50;
/** Histories read to split a run's time into queueing and work. */
const TIMING_SAMPLE = 20;

type ScaleOptions = BenchConfig['scale'];
/** A started run of either side: an agent handle or a bare workflow handle. */
type StartedRun = Pick<WorkflowHandle, 'fetchHistory'> & { result(): Promise<unknown> };

/** One side's figures at one load. */
interface SideResult {
  finishMs: number;
  peakBytes: number | undefined;
  /** Worker CPU from ready to stopped, per workflow task (activities included). */
  cpuPerTaskMs: number | undefined;
  durations: number[];
  startedAllMs: number;
  details: Record<string, unknown>;
  errors: string[];
}

/**
 * Figure 2: N runs started together, each `iterations` model calls of `modelMs` (the last one
 * calls finish, the others the instant tool), on one worker in its own process; then the same
 * loop written on the bare SDK (lib/raw-loop-workflow.ts) at the same load, on a worker with the
 * same options, so every run carries its own ratio. The ideal is iterations x modelMs. With
 * `repeats` above 1 the pair runs that often at each load, interleaved, and each figure is the
 * median: of each side's values, and of the pairs' ratios (a pair shares the machine's mood).
 */
export async function measureScale(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const o = config.scale;
  const rawBundle = await writeRawLoopBundle(path.dirname(ctx.bundlePath));
  try {
    const measurements: Measurement[] = [];
    const details: Record<string, unknown> = {
      iterationsPerRun: o.iterations,
      modelDelayMs: o.modelMs,
      clientConcurrency: CLIENT_CONCURRENCY,
      repeats: o.repeats,
      order: 'Thoughtline first, then the bare loop, at each load, on the same server; repeated in that order',
    };
    const errors: string[] = [];
    // A side that fails is reported; the other sides and loads still run.
    const side = (runs: number, which: ScaleSide, bundlePath: string) =>
      measureSide(ctx, o, runs, which, bundlePath).catch(
        (err: unknown) => void errors.push(`${runs} runs, ${which}: ${errorText(err)}`),
      );
    for (const runs of o.runs) {
      const pairs: Pair[] = [];
      for (let i = 0; i < o.repeats; i++) {
        const tl = (await side(runs, 'thoughtline', ctx.bundlePath)) ?? undefined;
        const bare = (await side(runs, 'bare', rawBundle)) ?? undefined;
        pairs.push({ tl, bare });
        errors.push(...(tl?.errors ?? []), ...(bare?.errors ?? []));
      }
      measurements.push(...loadRows(runs, o, pairs));
      const detailsOf = (pair: Pair) => ({ thoughtline: pair.tl?.details, bare: pair.bare?.details });
      details[`runs${runs}`] = pairs.length === 1 ? detailsOf(pairs[0]!) : pairs.map(detailsOf);
    }
    return { measurements, details, errors };
  } finally {
    fs.rmSync(rawBundle, { force: true });
  }
}

/** One Thoughtline side and the bare side after it, at one load; either is missing when it failed. */
interface Pair {
  tl: SideResult | undefined;
  bare: SideResult | undefined;
}

/** The median of what is there; undefined when nothing is. */
function medianOf(values: ReadonlyArray<number | undefined>): number | undefined {
  const present = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  return present.length ? median(present) : undefined;
}

function loadRows(runs: number, o: ScaleOptions, pairs: readonly Pair[]): Measurement[] {
  const at = `${runs} runs:`;
  const idealMs = o.iterations * o.modelMs;
  const mb = (bytes: number | undefined) => bytes && bytes / 1e6;
  const seconds = (ms: number | undefined) => ms && ms / 1000;
  const tlOf = (pick: (s: SideResult) => number | undefined) => medianOf(pairs.map((p) => p.tl && pick(p.tl)));
  const bareOf = (pick: (s: SideResult) => number | undefined) => medianOf(pairs.map((p) => p.bare && pick(p.bare)));
  const ratioOf = (pick: (s: SideResult) => number | undefined) =>
    medianOf(pairs.map((p) => ratio(p.tl && pick(p.tl), p.bare && pick(p.bare))));
  const finish = (s: SideResult) => s.finishMs;
  const cpu = (s: SideResult) => s.cpuPerTaskMs;
  const peak = (s: SideResult) => s.peakBytes;
  const durations = pairs.flatMap((p) => p.tl?.durations ?? []);
  const tlFinish = tlOf(finish);
  return [
    measurement(`${at} time to finish, Thoughtline`, seconds(tlFinish), 's'),
    measurement(`${at} time to finish, bare SDK loop`, seconds(bareOf(finish)), 's'),
    measurement(`${at} ratio time to finish, Thoughtline / bare`, ratioOf(finish), 'x', {
      target: { op: '<=', value: 1.3 },
    }),
    measurement(`${at} Thoughtline ratio to ideal (${idealMs / 1000} s)`, tlFinish && tlFinish / idealMs, 'x', {
      target: { op: '<=', value: 1.5 },
    }),
    measurement(`${at} worker CPU per workflow task, Thoughtline`, tlOf(cpu), 'ms'),
    measurement(`${at} worker CPU per workflow task, bare SDK loop`, bareOf(cpu), 'ms'),
    measurement(`${at} ratio CPU per workflow task, Thoughtline / bare`, ratioOf(cpu), 'x', {
      target: { op: '<=', value: 1.3 },
    }),
    measurement(`${at} peak worker RSS, Thoughtline`, mb(tlOf(peak)), 'MB', { target: { op: '<', value: 1500 } }),
    measurement(`${at} peak worker RSS, bare SDK loop`, mb(bareOf(peak)), 'MB'),
    measurement(`${at} ratio peak RSS, Thoughtline / bare`, ratioOf(peak), 'x', { target: { op: '<=', value: 1.5 } }),
    measurement(
      `${at} one Thoughtline run, start to close, p50`,
      durations.length ? summarise(durations).p50 / 1000 : undefined,
      's',
    ),
    measurement(
      `${at} one Thoughtline run, start to close, p95`,
      durations.length ? summarise(durations).p95 / 1000 : undefined,
      's',
    ),
    measurement(`${at} time to start all, Thoughtline`, seconds(tlOf((s) => s.startedAllMs)), 's'),
  ];
}

const ratio = (a: number | undefined, b: number | undefined): number | undefined =>
  a !== undefined && b ? a / b : undefined;

/** Starts `runs` runs of one side on a fresh worker process and waits for all of them. */
async function measureSide(
  ctx: BenchContext,
  o: ScaleOptions,
  runs: number,
  side: ScaleSide,
  bundlePath: string,
): Promise<SideResult> {
  const taskQueue = `bench-scale-${side}-${randomUUID()}`;
  const spec: ScaleWorkerSpec = {
    address: ctx.server.address,
    namespace: ctx.server.namespace,
    taskQueue,
    side,
    bundlePath,
    modelDelayMs: o.modelMs,
    workerOptions: { ...scaleWorkerOptions(runs), ...o.workerOptions },
  };
  const worker = await forkScaleWorker(spec, o.nodeArgs);
  const { child, ready } = worker;
  try {
    const rss = sampleRss(child.pid ?? 0);
    const agents = new AgentClient({ client: ctx.client, taskQueue });
    ctx.log(
      `scale: ${side}, starting ${runs} runs x ${o.iterations} iterations (${o.modelMs} ms per model call) on one worker (pid ${child.pid})`,
    );
    const t0 = Date.now();
    // Both sides: iterations model calls, the tool between them; the bare loop returns its tool count.
    const handles: StartedRun[] = await mapLimit<StartedRun>(runs, CLIENT_CONCURRENCY, () =>
      side === 'thoughtline'
        ? agents.start({
            ...benchRun({ iterations: o.iterations - 1 }),
            model: BENCH_MODEL,
            maxIterations: o.iterations + 1,
          })
        : ctx.client.workflow.start('rawLoop', {
            taskQueue,
            workflowId: `bench-raw-${randomUUID()}`,
            args: [o.iterations - 1],
          }),
    );
    const startedAllMs = Date.now() - t0;
    const observedDoneMs =
      (await Promise.race([waitUntilAllClosed(ctx.client, taskQueue, runs, t0 + o.timeoutMs), worker.died])) - t0;
    const peakRss = rss.peakBytes();
    rss.stop();
    const executions = await listExecutions(ctx.client, taskQueue);
    const finishMs = Math.max(...executions.map((e) => e.closeTime?.getTime() ?? Number.NaN)) - t0;
    ctx.log(`scale: ${side}, ${executions.length} runs done in ${finishMs} ms; checking their results`);
    const results = await mapLimit(handles.length, CLIENT_CONCURRENCY, (i) => handles[i]!.result());
    const failed = results.filter((r) => !succeeded(side, r, o.iterations));
    // Where a run's time went, averaged over a sample of histories.
    const sampled = handles.filter((_, i) => i % Math.ceil(handles.length / TIMING_SAMPLE) === 0);
    const timing = meanTiming(await Promise.all(sampled.map(async (h) => historyTiming(await h.fetchHistory()))));
    const stopped = await worker.stop();
    const peakBytes = Math.max(peakRss ?? 0, stopped?.maxRssBytes ?? 0) || undefined;
    const cpu = stopped ? workerCpu(ready, stopped, runs, timing) : undefined;
    return {
      finishMs,
      peakBytes,
      cpuPerTaskMs: cpu?.perWorkflowTaskMs,
      durations: executions.map((e) => (e.closeTime?.getTime() ?? Number.NaN) - e.startTime.getTime()),
      startedAllMs,
      details: {
        runs,
        workerOptionsGiven: spec.workerOptions,
        workerSettings: ready.settings,
        finishMs,
        observedDoneByClientMs: observedDoneMs,
        startedAllMs,
        failedRuns: failed.length,
        meanRunTimingMs: timing && { ...timing, runsSampled: sampled.length },
        peakRss: {
          vmHwmBytes: peakRss,
          getrusageMaxRssBytes: stopped?.maxRssBytes,
        },
        workerCpu: cpu,
        rssTimelineMB: rss.timeline(),
        how: 'finish = latest close time (server) - the client clock before the first start; both on this machine',
      },
      errors: failed.length
        ? [
            `${runs} runs, ${side}: ${failed.length} runs did not succeed with ${o.iterations} model calls, e.g. ${JSON.stringify(failed[0]).slice(0, 300)}`,
          ]
        : [],
    };
  } finally {
    await worker.stop();
  }
}

/** Whether a run ended as both loops should: Thoughtline by `finish`, the bare loop returning its tool count. */
function succeeded(side: ScaleSide, result: unknown, iterations: number): boolean {
  if (side === 'bare') return result === iterations - 1;
  const r = result as AgentResult;
  return r.terminationReason === 'success' && r.iterations === iterations;
}

/** The worker's CPU time while it ran the runs (start-up excluded), and per workflow task as a rough cost of one. */
function workerCpu(
  ready: Extract<ScaleWorkerMessage, { type: 'ready' }>,
  stopped: Extract<ScaleWorkerMessage, { type: 'stopped' }>,
  runs: number,
  timing: HistoryTiming | undefined,
) {
  const userMs = stopped.cpuUserMs - ready.cpuUserMs;
  const systemMs = stopped.cpuSystemMs - ready.cpuSystemMs;
  const tasks = timing ? runs * timing.workflowTasks : undefined;
  return {
    userMs,
    systemMs,
    perWorkflowTaskMs: tasks ? (userMs + systemMs) / tasks : undefined,
    note: 'from ready to stopped; activities included; per task = total / (runs x workflow tasks per run)',
  };
}
