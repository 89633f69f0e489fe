import { randomUUID } from 'node:crypto';
import { temporal } from '@temporalio/proto';
import { billableActions, type BillableActions } from '../src/client/runs/billable-actions';
import { benchRun, createBenchModel } from './lib/bench-model';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { benchTool } from './lib/bench-tools';
import { BENCH_MODEL, withBenchWorker } from './lib/bench-worker';
import { bareLoopWorker } from './lib/bare-loop-worker';
import { errorText, measurement, type FigureBody, type Measurement } from './lib/figure';
import { rawLoopBundleCode } from './lib/raw-loop-bundle';
import { installPeers, runPeer } from './lib/run-peers';

/** What one run of a loop costs, from its history. */
interface LoopCost {
  loop: string;
  /** Tool iterations; each run also makes a finishing model call. */
  iterations: number;
  actions: BillableActions;
  events: number;
  bytes: number;
}

/**
 * Figure 8: billable Temporal Cloud actions, events and history bytes of one run of K iterations
 * (one instant model call and one instant tool call each, then the finishing call), for
 * Thoughtline, the same loop on the bare SDK and `@temporalio/ai-sdk`, counted from their real
 * histories on the bench's server (billableActions). Each figure is exact for its run: no sampling.
 */
export async function measureActions(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const iterations = config.overhead.iterations;
  const errors: string[] = [];
  const costs: LoopCost[] = [];
  // Thoughtline's iterations are its model turns: the K tool iterations and the finishing call.
  const turns = iterations + 1;
  const attempt = async (loop: string, measure: () => Promise<temporal.api.history.v1.IHistory>) => {
    try {
      costs.push(cost(loop, iterations, await measure()));
    } catch (err) {
      errors.push(`${loop}: ${errorText(err)}`);
    }
  };
  ctx.log(`actions: one run of ${iterations} tool iterations and a finishing call, of each loop`);
  await attempt('Thoughtline', () => thoughtlineRun(ctx, iterations));
  await attempt('bare Temporal SDK loop', () => bareRun(ctx, iterations));
  await attempt('temporal-ai-sdk', () => aiSdkRun(ctx, config, iterations));
  const rows: Measurement[] = costs.flatMap((c) => [
    // Issue 44: at most 2 an iteration + 3 (a start, two upserts; the tools are described by the first model call).
    measurement(
      `${c.loop}: billable actions per run (${turns} model calls, ${iterations} tool calls)`,
      c.actions.total,
      'actions',
      c.loop === 'Thoughtline' ? { target: { op: '<=', value: 2 * turns + 3 } } : {},
    ),
    measurement(`${c.loop}: billable actions per model call`, c.actions.total / turns, 'actions'),
    measurement(`${c.loop}: history events per run`, c.events, 'events'),
    measurement(`${c.loop}: history bytes per iteration`, c.bytes / iterations / 1024, 'KB'),
  ]);
  return {
    measurements: rows,
    errors,
    details: {
      runs: costs,
      counted:
        'billableActions(history): the run start, every activity attempt, one per workflow task that ran local activities, search-attribute upserts, timers, child starts, signals received or sent, updates accepted; queries and heartbeats leave no event and are not counted',
      why: {
        describeTools:
          "no action of its own: the run's first model call has the worker describe the tools it has, so the workflow never holds a tool list of its own (a run that reads them before that call, with text ReAct, planning, a budget or a tenant, pays one describeTools activity)",
        upserts:
          "Thoughtline's status in search attributes (the first publish, each change of status or model, the end): what the Web UI and `thoughtline list` filter runs by",
      },
    },
  };
}

function cost(loop: string, iterations: number, history: temporal.api.history.v1.IHistory): LoopCost {
  return {
    loop,
    iterations,
    actions: billableActions(history),
    events: history.events?.length ?? 0,
    bytes: temporal.api.history.v1.History.encode(history).finish().length,
  };
}

async function thoughtlineRun(ctx: BenchContext, iterations: number): Promise<temporal.api.history.v1.IHistory> {
  return withBenchWorker(ctx, { model: createBenchModel(), tools: [benchTool(0)] }, async (agents) => {
    const handle = await agents.start({
      ...benchRun({ iterations }),
      model: BENCH_MODEL,
      maxIterations: iterations + 2,
    });
    const result = await handle.result();
    if (result.toolCalls !== iterations || result.iterations !== iterations + 1)
      throw new Error(
        `ran ${result.iterations} iterations and ${result.toolCalls} tool calls, not ${iterations + 1} and ${iterations}`,
      );
    return handle.fetchHistory();
  });
}

async function bareRun(ctx: BenchContext, iterations: number): Promise<temporal.api.history.v1.IHistory> {
  const taskQueue = `bench-actions-raw-${randomUUID()}`;
  const worker = await bareLoopWorker(ctx, taskQueue, await rawLoopBundleCode());
  return worker.runUntil(async () => {
    const workflowId = `raw-actions-${randomUUID()}`;
    await ctx.client.workflow.execute('rawLoop', { taskQueue, workflowId, args: [iterations] });
    return ctx.client.workflow.getHandle(workflowId).fetchHistory();
  });
}

/** One run of the `@temporalio/ai-sdk` peer on this server; its workflow is found by the id prefix the peer gives it. */
async function aiSdkRun(
  ctx: BenchContext,
  config: BenchConfig,
  iterations: number,
): Promise<temporal.api.history.v1.IHistory> {
  const installError = await installPeers(config.peers.dir, ctx.log);
  if (installError) throw new Error(installError);
  const since = new Date(Date.now() - 1_000).toISOString();
  const outcome = await runPeer(
    config.peers.dir,
    'temporal-ai-sdk',
    { iterations, runs: 1, address: ctx.server.address, namespace: ctx.server.namespace },
    config.peers.timeoutMs,
  );
  if (!outcome.ok) throw new Error(`${outcome.stage}: ${outcome.error}`);
  for await (const run of ctx.client.workflow.list({
    query: `WorkflowType = 'aiSdkAgent' AND StartTime > '${since}'`,
  })) {
    if (run.workflowId.startsWith('bench-ai-sdk-run-0-'))
      return ctx.client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
  }
  throw new Error('the peer ran, but its run is not listed');
}
