import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { AgentClient } from '../src/client/agent-client';
import { StatusAttribute } from '../src/domain';
import { benchRun } from './lib/bench-model';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { BENCH_MODEL } from './lib/bench-worker';
import { measurement, type FigureBody } from './lib/figure';
import { mapLimit } from './lib/map-limit';
import { sampleRss } from './lib/rss-sampler';
import type { ScaleWorkerMessage, ScaleWorkerSpec } from './lib/scale-worker';
import { nextMessage } from './lib/worker-messages';

/** Starting runs: enough requests in flight to keep the server busy, not to flood it. */
const CLIENT_CONCURRENCY = 50;
const MB = 1e6;

/**
 * Figure 7: runs that wait for a person cost little. (a) N runs wait on a question on one worker
 * that keeps them all cached: the worker process's RSS before and after, per run. (b) Many more
 * wait on a worker with the SDK's default cache, so most are evicted as Temporal intends: its peak
 * RSS, and the time from answering one to its result (a replay of that one run).
 */
export async function measureIdleRuns(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const o = config.idle;
  const cached = await withIdleWorker(
    ctx,
    { maxCachedWorkflows: o.cachedRuns + 100, maxConcurrentActivityTaskExecutions: 200 },
    async (w) => {
      const before = await w.memory();
      ctx.log(`idle: ${o.cachedRuns} runs waiting on a question, all cached`);
      await startWaiting(ctx, w.agents, w.taskQueue, o.cachedRuns);
      // Let the worker settle (its pollers, buffers) before reading what the runs hold.
      await sleep(2_000);
      const after = await w.memory();
      return { before, after, perRunMB: (after.rssBytes - before.rssBytes) / o.cachedRuns / MB };
    },
  );
  const evicted = await withIdleWorker(ctx, {}, async (w) => {
    ctx.log(`idle: ${o.evictedRuns} runs waiting on a question, the SDK's default cache`);
    const handles = await startWaiting(ctx, w.agents, w.taskQueue, o.evictedRuns);
    const first = handles[0]!;
    const started = performance.now();
    await w.agents.answer(first.workflowId, 'Yes, finish.', 'bench');
    const result = await first.result();
    const resumeMs = performance.now() - started;
    if (!result.success || !result.finalAnswer.includes('Answered'))
      throw new Error(`the answered run ended ${result.terminationReason}: ${result.finalAnswer}`);
    return { resumeMs, peakRssBytes: w.peakRss(), settings: w.settings };
  });
  return {
    measurements: [
      measurement(`memory per cached idle run (${o.cachedRuns} runs, worker RSS)`, cached.perRunMB, 'MB', {
        target: { op: '<=', value: 1 },
      }),
      measurement(
        `peak worker RSS, ${o.evictedRuns} idle runs (default cache)`,
        evicted.peakRssBytes && evicted.peakRssBytes / MB,
        'MB',
      ),
      measurement(`answer one of ${o.evictedRuns} idle runs -> its result`, evicted.resumeMs, 'ms'),
    ],
    details: {
      cached: {
        runs: o.cachedRuns,
        rssBeforeMB: cached.before.rssBytes / MB,
        rssAfterMB: cached.after.rssBytes / MB,
        mainHeapBeforeMB: cached.before.heapUsedBytes / MB,
        mainHeapAfterMB: cached.after.heapUsedBytes / MB,
      },
      evicted: { runs: o.evictedRuns, workerSettings: evicted.settings },
      how: 'each run asks a question at once (allowQuestions) and waits; the worker is its own process; RSS includes the workflow threads, main heap after a full GC does not',
    },
  };
}

interface IdleWorker {
  agents: AgentClient;
  taskQueue: string;
  settings: Record<string, unknown> | undefined;
  memory(): Promise<Extract<ScaleWorkerMessage, { type: 'memory' }>>;
  peakRss(): number | undefined;
}

/** One agent worker in its own process (so its memory is its own) for the length of `fn`. */
async function withIdleWorker<T>(
  ctx: BenchContext,
  workerOptions: Record<string, unknown>,
  fn: (w: IdleWorker) => Promise<T>,
): Promise<T> {
  const taskQueue = `bench-idle-${randomUUID()}`;
  const spec: ScaleWorkerSpec = {
    address: ctx.server.address,
    namespace: ctx.server.namespace,
    taskQueue,
    side: 'thoughtline',
    bundlePath: ctx.bundlePath,
    modelDelayMs: 0,
    workerOptions,
  };
  const child: ChildProcess = fork(path.join(__dirname, 'lib', 'scale-worker.js'), [JSON.stringify(spec)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: ['--expose-gc'],
  });
  const killChild = (): void => void child.kill('SIGKILL');
  process.once('exit', killChild);
  try {
    const ready = await nextMessage(child, 'ready', 120_000);
    const rss = sampleRss(child.pid ?? 0);
    const memory = async () => {
      child.send('memory');
      return (await nextMessage(child, 'memory', 30_000)) as Extract<ScaleWorkerMessage, { type: 'memory' }>;
    };
    try {
      return await fn({
        agents: new AgentClient({ client: ctx.client, taskQueue }),
        taskQueue,
        settings: ready.type === 'ready' ? ready.settings : undefined,
        memory,
        peakRss: () => rss.peakBytes(),
      });
    } finally {
      rss.stop();
      await terminateAll(ctx.client, taskQueue);
      child.send('stop');
      await nextMessage(child, 'stopped', 60_000).catch(() => undefined);
    }
  } finally {
    process.removeListener('exit', killChild);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** Starts `runs` runs that ask a question at once, and returns when every one waits for it. */
async function startWaiting(ctx: BenchContext, agents: AgentClient, taskQueue: string, runs: number) {
  const handles = await mapLimit(runs, CLIENT_CONCURRENCY, () =>
    agents.start({
      ...benchRun({ iterations: 0, askAtEnd: true }),
      model: BENCH_MODEL,
      allowQuestions: true,
      maxIterations: 3,
    }),
  );
  const query = `TaskQueue = '${taskQueue}' AND ${StatusAttribute.name} = 'waiting_input'`;
  const deadline = Date.now() + 60_000 + runs * 100;
  for (let waiting = 0; waiting < runs; await sleep(500)) {
    if (Date.now() > deadline)
      throw new Error(`only ${waiting} of ${runs} runs were waiting on their question in time`);
    waiting = (await ctx.client.workflow.count(query)).count;
  }
  return handles;
}

/** The runs left waiting end here, so later figures share the server with none of them. */
async function terminateAll(client: Client, taskQueue: string): Promise<void> {
  const ids: string[] = [];
  for await (const e of client.workflow.list({ query: `TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Running'` }))
    ids.push(e.workflowId);
  await mapLimit(ids.length, CLIENT_CONCURRENCY, (i) =>
    client.workflow
      .getHandle(ids[i]!)
      .terminate('benchmark done')
      .catch(() => undefined),
  );
}
