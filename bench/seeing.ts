import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import type { AgentHandle } from '../src/client/agent-client';
import { chainQuery, statusQuery } from '../src/workflows/messages';
import { benchRun, createBenchModel } from './lib/bench-model';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { measureBareEvictedQuery } from './lib/bare-evicted-query';
import { benchTool } from './lib/bench-tools';
import { BENCH_MODEL, withBenchWorker } from './lib/bench-worker';
import { measurement, type FigureBody, type Measurement } from './lib/figure';
import { median, p95, summarise } from './lib/stats';
import { runLimitMs, within } from './lib/within';

const QUERY_TARGET = { op: '<', value: 100 } as const;
const WATCH_TARGET = {
  op: '<',
  value: 50,
  note: 'once streaming exists; watch() polls the chain query today',
} as const;

/**
 * Figure 3: how fast people see a run. `chain` query latency on a long chain, answered from a
 * cached workflow and by a worker with no cache (a full replay per query), next to the same
 * evicted query to a loop on the bare SDK (the floor replay sets); and the time from a step
 * landing to `AgentClient.watch` yielding it.
 */
export async function measureSeeing(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const chain = await measureChainQueries(ctx, config.seeing);
  const watch = await measureWatchers(ctx, config.seeing);
  const rows: Measurement[] = [
    measurement(
      `chain query p50, cached (this Temporal run: ${chain.steps} of ${chain.wholeSteps} steps)`,
      median(chain.cached),
      'ms',
    ),
    measurement(
      `chain query p95, cached (this Temporal run: ${chain.steps} of ${chain.wholeSteps} steps)`,
      p95(chain.cached),
      'ms',
      { target: QUERY_TARGET },
    ),
    measurement(
      `chain query p50, evicted (this Temporal run: ${chain.steps} of ${chain.wholeSteps} steps)`,
      median(chain.evicted),
      'ms',
    ),
    measurement(
      `chain query p95, evicted (this Temporal run: ${chain.steps} of ${chain.wholeSteps} steps)`,
      p95(chain.evicted),
      'ms',
      { target: QUERY_TARGET },
    ),
    measurement(
      `the same query to the bare SDK loop (${chain.bare.iterations} iterations, as many activities), p50, evicted`,
      median(chain.bare.samplesMs),
      'ms',
    ),
    measurement(`the same, p95, evicted`, p95(chain.bare.samplesMs), 'ms', { target: QUERY_TARGET }),
    measurement(
      'ratio evicted chain query p95, Thoughtline / bare',
      p95(chain.evicted) / p95(chain.bare.samplesMs),
      'x',
    ),
    measurement(`latest ${PAGE_STEPS} steps (AgentClient.chain page) p95, cached`, p95(chain.cachedPage), 'ms', {
      target: QUERY_TARGET,
    }),
    measurement(`latest ${PAGE_STEPS} steps (AgentClient.chain page) p95, evicted`, p95(chain.evictedPage), 'ms', {
      target: QUERY_TARGET,
    }),
    measurement(
      `whole chain (${chain.wholeSteps} steps, ${chain.continuations + 1} Temporal runs joined) p50, cached`,
      median(chain.cachedWhole),
      'ms',
    ),
    measurement(
      `whole chain (${chain.wholeSteps} steps, ${chain.continuations + 1} Temporal runs joined) p50, evicted`,
      median(chain.evictedWhole),
      'ms',
    ),
    ...watch.flatMap((w) => [
      measurement(`step landed -> watcher p50, poll ${w.pollMs} ms`, median(w.latencies), 'ms'),
      measurement(`step landed -> watcher p95, poll ${w.pollMs} ms`, p95(w.latencies), 'ms', { target: WATCH_TARGET }),
    ]),
  ];
  return {
    measurements: rows,
    details: {
      chainQuery: {
        iterations: config.seeing.chainIterations,
        steps: chain.steps,
        chainJsonBytes: chain.chainBytes,
        continuations: chain.continuations,
        currentRunHistory: chain.history,
        cached: {
          worker: 'SDK defaults (workflow cached)',
          summary: summarise(chain.cached),
          samplesMs: chain.cached,
          page: summarise(chain.cachedPage),
          wholeMs: chain.cachedWhole,
        },
        evicted: {
          worker: 'maxCachedWorkflows: 0 (each query replays the run)',
          firstQueryMs: chain.firstEvictedMs,
          summary: summarise(chain.evicted),
          samplesMs: chain.evicted,
          page: summarise(chain.evictedPage),
          wholeMs: chain.evictedWhole,
        },
        bare: {
          ...chain.bare,
          summary: summarise(chain.bare.samplesMs),
          how: 'rawLoopThenWait (lib/raw-loop-workflow.ts) on the same server; a worker ran it, then one with maxCachedWorkflows: 0 answers',
        },
        wholeHow:
          "AgentClient.chain: the latest run's query, then each earlier Temporal run's (a closed run's query replays it on a worker)",
        how: 'the run waits on a question (allowQuestions) so it stays open; each sample is one handle.query(chainQuery) round trip',
      },
      watch: watch.map((w) => ({ ...w, summary: summarise(w.latencies), modelDelayMs: config.seeing.watchModelMs })),
      watchHow:
        'AgentClient.watch(id, pollMs); latency = receive time - step.timestamp (workflow time of the task that made the step), one clock',
    },
  };
}

async function measureChainQueries(ctx: BenchContext, o: BenchConfig['seeing']) {
  const taskQueue = `bench-chain-${randomUUID()}`;
  const setup = { model: createBenchModel(), tools: [benchTool()], taskQueue };
  ctx.log(`seeing: a run of ${o.chainIterations} iterations that then waits on a question`);
  const opened = await withBenchWorker(ctx, setup, async (agents) => {
    const handle = await agents.start({
      ...benchRun({ iterations: o.chainIterations, askAtEnd: true }),
      model: BENCH_MODEL,
      maxIterations: o.chainIterations + 5,
      allowQuestions: true,
    });
    const status = await waitForQuestion(handle, runLimitMs(o.chainIterations));
    const chain = await handle.query(chainQuery);
    const whole = await agents.chain(handle.workflowId);
    ctx.log(`seeing: ${o.queries} chain queries answered from the cache`);
    return {
      workflowId: handle.workflowId,
      continuations: status.continuations,
      steps: chain.steps.length,
      wholeSteps: whole.steps.length,
      chainBytes: Buffer.byteLength(JSON.stringify(chain)),
      cached: await timeReads(() => handle.query(chainQuery), o.queries),
      cachedPage: await timeReads(
        () => agents.chain(handle.workflowId, 'developer', latestPage(whole.steps.length)),
        o.queries,
      ),
      cachedWhole: await timeReads(() => agents.chain(handle.workflowId), WHOLE_READS),
    };
  });
  // Same task queue, no cache: every query fetches the history and replays it before answering.
  ctx.log(`seeing: ${o.queries} chain queries on a worker with no cache`);
  const evicted = await withBenchWorker(ctx, { ...setup, workerOptions: { maxCachedWorkflows: 0 } }, async (agents) => {
    const handle = agents.getHandle(opened.workflowId);
    const [first] = await timeReads(() => handle.query(chainQuery), 1);
    const samples = await timeReads(() => handle.query(chainQuery), o.queries);
    const page = await timeReads(
      () => agents.chain(handle.workflowId, 'developer', latestPage(opened.wholeSteps)),
      o.queries,
    );
    const whole = await timeReads(() => agents.chain(handle.workflowId), WHOLE_READS);
    const { historyLength, historySize } = await handle.describe();
    const activities = await scheduledActivities(ctx, handle.workflowId);
    await handle.terminate('benchmark done');
    return { first, samples, page, whole, history: { events: historyLength, bytes: historySize, activities } };
  });
  // The bare loop with as many activities (a model and a tool call an iteration) as this Temporal run.
  const bareIterations = Math.max(1, Math.round(evicted.history.activities / 2));
  ctx.log(`seeing: ${o.queries} queries to a bare SDK loop of ${bareIterations} iterations on a worker with no cache`);
  const bare = await measureBareEvictedQuery(ctx, { iterations: bareIterations, queries: o.queries });
  return {
    ...opened,
    evicted: evicted.samples,
    evictedPage: evicted.page,
    evictedWhole: evicted.whole,
    firstEvictedMs: evicted.first,
    history: evicted.history,
    bare,
  };
}

/** Activities the latest Temporal run of `workflowId` scheduled (local ones are markers, not counted). */
async function scheduledActivities(ctx: BenchContext, workflowId: string): Promise<number> {
  const history = await ctx.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes).length;
}

async function waitForQuestion(handle: AgentHandle, timeoutMs: number) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    const desc = await handle.describe();
    if (desc.status.name !== 'RUNNING')
      throw new Error(`the chain run ended (${desc.status.name}) before it asked its question`);
    const status = await handle.query(statusQuery).catch(() => undefined);
    if (status?.openQuestion) return status;
    await sleep(250);
  }
  throw new Error(`the chain run asked no question within ${timeoutMs} ms`);
}

/** Reads of the whole chain join every Temporal run's: slower, so fewer samples. */
const WHOLE_READS = 5;
const PAGE_STEPS = 100;
const latestPage = (steps: number) => ({ afterStep: Math.max(0, steps - PAGE_STEPS), limit: PAGE_STEPS });

async function timeReads(read: () => Promise<unknown>, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await read();
    samples.push(performance.now() - started);
  }
  return samples;
}

async function measureWatchers(ctx: BenchContext, o: BenchConfig['seeing']) {
  // The model takes a little time, so steps land at every phase of the poll cycle.
  const setup = { model: createBenchModel({ delayMs: o.watchModelMs }), tools: [benchTool()] };
  return withBenchWorker(ctx, setup, async (agents) => {
    const results: Array<{ pollMs: number; steps: number; latencies: number[] }> = [];
    for (const pollMs of o.pollMs) {
      ctx.log(`seeing: watching a ${o.watchIterations}-iteration run, polling every ${pollMs} ms`);
      const handle = await agents.start({
        ...benchRun({ iterations: o.watchIterations }),
        model: BENCH_MODEL,
        maxIterations: o.watchIterations + 2,
      });
      const latencies: number[] = [];
      const watching = (async () => {
        for await (const step of agents.watch(handle.workflowId, pollMs))
          latencies.push(Date.now() - Date.parse(step.timestamp));
      })();
      await within(watching, runLimitMs(o.watchIterations), `watching run ${handle.workflowId}`);
      results.push({ pollMs, steps: latencies.length, latencies });
    }
    return results;
  });
}
