import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { AgentClient } from '../src/client/agent-client';
import { benchRun } from './lib/bench-model';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { BENCH_MODEL } from './lib/bench-worker';
import { historyTiming, meanTiming, type HistoryTiming } from './lib/history-timing';
import { measurement, type FigureBody } from './lib/figure';
import { mapLimit } from './lib/map-limit';
import { sampleRss } from './lib/rss-sampler';
import type { ScaleWorkerMessage, ScaleWorkerSpec } from './lib/scale-worker';
import { nextMessage } from './lib/worker-messages';
import { summarise } from './lib/stats';

/** Starting and checking runs: enough requests in flight to keep the server busy, not to flood it. */
const CLIENT_CONCURRENCY = 50;
/** Histories read to split a run's time into queueing and work. */
const TIMING_SAMPLE = 20;

/**
 * The scale worker's options unless BENCH_SCALE_WORKER_OPTIONS overrides them: up to 500 runs
 * stay cached (each costs about 4 MB; more is an eviction and a replay), every run's 200 ms model
 * call can wait at once, and pollers scale with the backlog.
 */
function scaleWorkerOptions(runs: number): Record<string, unknown> {
  const slots = Math.max(runs, 10);
  return {
    maxCachedWorkflows: Math.min(slots, 500),
    maxConcurrentWorkflowTaskExecutions: Math.min(slots, 100),
    maxConcurrentActivityTaskExecutions: slots,
    workflowTaskPollerBehavior: { type: 'autoscaling' },
    activityTaskPollerBehavior: { type: 'autoscaling' },
  };
}

/**
 * Figure 2: N runs started together, each `iterations` model calls of `modelMs` (the last one
 * calls finish, the others the instant tool), on one worker in its own process. The ideal is
 * iterations x modelMs: every run fully concurrent and the framework free.
 */
export async function measureScale(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const o = config.scale;
  const taskQueue = `bench-scale-${randomUUID()}`;
  const spec: ScaleWorkerSpec = {
    address: ctx.server.address,
    namespace: ctx.server.namespace,
    taskQueue,
    bundlePath: ctx.bundlePath,
    modelDelayMs: o.modelMs,
    workerOptions: { ...scaleWorkerOptions(o.runs), ...o.workerOptions },
  };
  const child = fork(path.join(__dirname, 'lib', 'scale-worker.js'), [JSON.stringify(spec)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const killChild = (): void => void child.kill('SIGKILL');
  process.once('exit', killChild);
  try {
    const ready = await nextMessage(child, 'ready', 120_000);
    const rss = sampleRss(child.pid ?? 0);
    const agents = new AgentClient({ client: ctx.client, taskQueue });
    ctx.log(`scale: starting ${o.runs} runs x ${o.iterations} iterations (${o.modelMs} ms per model call) on one worker (pid ${child.pid})`);
    const t0 = Date.now();
    const handles = await mapLimit(o.runs, CLIENT_CONCURRENCY, () =>
      agents.start({ ...benchRun({ iterations: o.iterations - 1 }), model: BENCH_MODEL, maxIterations: o.iterations + 1 }),
    );
    const startedAllMs = Date.now() - t0;
    // A worker that dies fails the figure now rather than at the timeout.
    const died = new Promise<never>((_, reject) => child.once('exit', (code, signal) => reject(new Error(`the scale worker exited mid-run (${signal ?? `code ${code}`})`))));
    died.catch(() => undefined); // it also rejects at the normal stop, later
    const observedDoneMs = (await Promise.race([waitUntilAllClosed(ctx.client, taskQueue, o.runs, t0 + o.timeoutMs), died])) - t0;
    const peakRss = rss.peakBytes();
    rss.stop();
    const executions = await listExecutions(ctx.client, taskQueue);
    const closes = executions.map((e) => e.closeTime?.getTime() ?? Number.NaN);
    const finishMs = Math.max(...closes) - t0;
    const idealMs = o.iterations * o.modelMs;
    const ratio = finishMs / idealMs;
    ctx.log(`scale: ${executions.length} runs done in ${finishMs} ms (ideal ${idealMs} ms); checking their results`);
    const results = await mapLimit(handles.length, CLIENT_CONCURRENCY, (i) => handles[i]!.result());
    const failed = results.filter((r) => r.terminationReason !== 'success' || r.iterations !== o.iterations);
    // Where a run's time went, averaged over a sample of histories.
    const sampled = handles.filter((_, i) => i % Math.ceil(handles.length / TIMING_SAMPLE) === 0);
    const timing = meanTiming(await Promise.all(sampled.map(async (h) => historyTiming(await h.fetchHistory()))));
    child.send('stop');
    const stopped = await nextMessage(child, 'stopped', 60_000).catch(() => undefined);
    const peakBytes = Math.max(peakRss ?? 0, stopped?.type === 'stopped' ? stopped.maxRssBytes : 0) || undefined;
    const durations = executions.map((e) => (e.closeTime?.getTime() ?? Number.NaN) - e.startTime.getTime());
    return {
      measurements: [
        measurement(`time to finish ${o.runs} runs`, finishMs / 1000, 's'),
        measurement('ideal', idealMs / 1000, 's'),
        measurement('ratio to ideal', ratio, 'x', { target: { op: '<=', value: 1.5 } }),
        measurement('peak RSS of the worker process', peakBytes && peakBytes / 1e6, 'MB', { target: { op: '<', value: 1500 } }),
        measurement('one run, start to close, p50', summarise(durations).p50 / 1000, 's'),
        measurement('one run, start to close, p95', summarise(durations).p95 / 1000, 's'),
        measurement(`time to start all ${o.runs} runs`, startedAllMs / 1000, 's'),
      ],
      details: {
        runs: o.runs,
        iterationsPerRun: o.iterations,
        modelCallsPerRun: o.iterations,
        toolCallsPerRun: o.iterations - 1,
        modelDelayMs: o.modelMs,
        workerOptionsGiven: spec.workerOptions,
        workerSettings: ready.type === 'ready' ? ready.settings : undefined,
        finishMs,
        observedDoneByClientMs: observedDoneMs,
        startedAllMs,
        clientConcurrency: CLIENT_CONCURRENCY,
        perRunMs: summarise(durations),
        failedRuns: failed.length,
        meanRunTimingMs: timing && { ...timing, runsSampled: sampled.length },
        peakRss: { vmHwmBytes: peakRss, getrusageMaxRssBytes: stopped?.type === 'stopped' ? stopped.maxRssBytes : undefined },
        workerCpu: stopped?.type === 'stopped' ? workerCpu(stopped, o.runs, timing) : undefined,
        rssTimelineMB: rss.timeline(),
        how: 'finish = latest close time (server) - the client clock before the first start; both on this machine',
      },
      errors: failed.length ? [`${failed.length} runs did not succeed with ${o.iterations} iterations, e.g. ${failed[0]?.terminationReason}: ${failed[0]?.error ?? ''}`] : [],
    };
  } finally {
    process.removeListener('exit', killChild);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** The worker's CPU time (start-up included), and per workflow task as a rough cost of one. */
function workerCpu(stopped: Extract<ScaleWorkerMessage, { type: 'stopped' }>, runs: number, timing: HistoryTiming | undefined) {
  const totalMs = stopped.cpuUserMs + stopped.cpuSystemMs;
  const tasks = timing ? runs * timing.workflowTasks : undefined;
  return { userMs: stopped.cpuUserMs, systemMs: stopped.cpuSystemMs, perWorkflowTaskMs: tasks ? totalMs / tasks : undefined, note: 'activities included; per task = total / (runs x workflow tasks per run)' };
}

/** Polls visibility until every run on the queue has closed; returns the time it saw that. */
async function waitUntilAllClosed(client: Client, taskQueue: string, runs: number, deadline: number): Promise<number> {
  // Counting closed runs, not open ones: a run not yet visible would look like a finished one.
  const query = `TaskQueue = '${taskQueue}' AND ExecutionStatus != 'Running'`;
  while (Date.now() < deadline) {
    if ((await client.workflow.count(query)).count >= runs) return Date.now();
    await sleep(250);
  }
  throw new Error(`runs still open on ${taskQueue} after the scale timeout (BENCH_SCALE_TIMEOUT_MS)`);
}

async function listExecutions(client: Client, taskQueue: string) {
  const executions = [];
  for await (const e of client.workflow.list({ query: `TaskQueue = '${taskQueue}'` })) executions.push(e);
  return executions;
}
