import type { AgentResult } from '../src/domain';
import { benchRun, createBenchModel } from './lib/bench-model';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { benchTool } from './lib/bench-tools';
import { BENCH_MODEL, withBenchWorker } from './lib/bench-worker';
import { errorText, measurement, type FigureBody, type Measurement } from './lib/figure';
import { historyTiming, type HistoryTiming } from './lib/history-timing';
import { installPeers, runPeer, type PeerOutcome } from './lib/run-peers';
import { median, p95, ratio, summarise } from './lib/stats';
import { withTemporalFloor, type TemporalFloor } from './lib/temporal-floor';
import { workerSettings } from './lib/worker-settings';
import { runLimitMs, within } from './lib/within';

type Protocol = BenchConfig['overhead'];

/**
 * Figure 1: time per ReAct iteration (one model call + one tool call, both instant), for
 * Thoughtline, the same loop on the bare Temporal SDK, and the peers. A run is K iterations plus
 * the model's finishing call; one sample is a run's wall time (start to result) / K.
 */
export async function measureOverhead(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const protocol = config.overhead;
  const errors: string[] = [];
  ctx.log(
    `overhead: Thoughtline and the same loop on the bare Temporal SDK in alternation, ${protocol.warmup} warm-up + ${protocol.runs} runs x ${protocol.iterations} iterations each`,
  );
  const floorRun = { samples: [] as number[], failed: false, lastRun: undefined as HistoryTiming | undefined };
  const alternating = async (bare: TemporalFloor) => {
    const measured = await measureThoughtline(ctx, protocol, { after: (i) => runFloor(bare, i) });
    floorRun.lastRun = floorRun.failed ? undefined : await bare.lastRun();
    return measured;
  };
  // A bare worker that cannot start costs the bare side only: Thoughtline is then timed alone.
  const thoughtline = await withTemporalFloor(ctx, protocol.iterations, alternating, (err) => {
    floorRun.failed = true;
    errors.push(`bare Temporal SDK loop: ${errorText(err)}`);
    return measureThoughtline(ctx, protocol);
  });
  ctx.log('overhead: Thoughtline with the tool as a local activity');
  const local = await measureThoughtline(ctx, protocol, { localTool: true });
  const floor = floorRun.failed ? undefined : floorRun.samples;

  /** One bare run after Thoughtline's run `i`; a failure is reported once and ends the bare side. */
  async function runFloor(bare: TemporalFloor, i: number): Promise<void> {
    if (floorRun.failed) return;
    try {
      const ms = await bare.run();
      if (i >= protocol.warmup) floorRun.samples.push(ms);
    } catch (err) {
      floorRun.failed = true;
      errors.push(`bare Temporal SDK loop: ${errorText(err)}`);
    }
  }
  const peers = await runPeers(ctx, config);
  for (const p of peers) {
    if (!p.ok) errors.push(`peer ${p.name} (${p.stage}): ${p.error}`);
    else if (p.report.iterationsPerRun !== protocol.iterations)
      errors.push(
        `peer ${p.name} ran ${p.report.iterationsPerRun} iterations per run, not ${protocol.iterations}: its ratios compare different runs`,
      );
  }

  const peer = (name: string) =>
    peers.find((p): p is Extract<PeerOutcome, { ok: true }> => p.ok && p.name === name)?.report.perIterationMs;
  const tl = thoughtline.samples;
  const rows: Measurement[] = [
    measurement('Thoughtline p50 per iteration', median(tl), 'ms', { target: { op: '<=', value: 15 } }),
    measurement('Thoughtline p95 per iteration', p95(tl), 'ms'),
    measurement('Thoughtline, local tool, p50 per iteration', median(local.samples), 'ms', {
      target: { op: '<=', value: 25 },
    }),
    measurement('Thoughtline, local tool, p95 per iteration', p95(local.samples), 'ms'),
    ...pair('bare Temporal SDK loop', floor),
    ...peers.flatMap((p) => pair(`peer ${p.name}`, p.ok ? p.report.perIterationMs : undefined)),
    measurement(
      'ratio Thoughtline / plain-node (floor), p50',
      ratio(median(tl), median(peer('plain-node') ?? [])),
      'x',
    ),
    measurement(
      'ratio Thoughtline / temporal-ai-sdk, p50',
      ratio(median(tl), median(peer('temporal-ai-sdk') ?? [])),
      'x',
      { target: { op: '<=', value: 1 } },
    ),
    measurement('ratio Thoughtline / temporal-ai-sdk, p95', ratio(p95(tl), p95(peer('temporal-ai-sdk') ?? [])), 'x'),
    measurement(
      'ratio Thoughtline / langgraph-sqlite, p50',
      ratio(median(tl), median(peer('langgraph-sqlite') ?? [])),
      'x',
    ),
    measurement('ratio Thoughtline / bare Temporal SDK loop, p50', ratio(median(tl), floor && median(floor)), 'x', {
      target: { op: '<=', value: 1.15 },
    }),
  ];
  return {
    measurements: rows,
    details: {
      protocol: {
        ...protocol,
        sample:
          'run wall time (start to result) / iterations; a run is K tool iterations plus one finishing model call',
      },
      thoughtline: {
        summary: summarise(tl),
        samplesMs: tl,
        modelCallsPerRun: thoughtline.modelCalls,
        toolCallsPerRun: thoughtline.toolCalls,
        worker: thoughtline.worker,
        lastRunTimingMs: thoughtline.lastRun,
      },
      thoughtlineLocalTool: {
        summary: summarise(local.samples),
        samplesMs: local.samples,
        lastRunTimingMs: local.lastRun,
        how: 'the same runs with the bench tool defined with local: true',
      },
      temporalSdkLoop: floor
        ? {
            summary: summarise(floor),
            samplesMs: floor,
            worker: 'SDK defaults',
            lastRunTimingMs: floorRun.lastRun,
            how: 'one bare run after each Thoughtline run, on its own worker polling meanwhile',
          }
        : undefined,
      peers: peers.map((p) =>
        p.ok ? { ok: true, ...p.report, summary: summarise(p.report.perIterationMs), wallMs: p.wallMs } : p,
      ),
    },
    errors,
  };
}

function pair(label: string, samples: number[] | undefined): Measurement[] {
  return [
    measurement(`${label} p50 per iteration`, samples && median(samples), 'ms'),
    measurement(`${label} p95 per iteration`, samples && p95(samples), 'ms'),
  ];
}

async function measureThoughtline(
  ctx: BenchContext,
  protocol: Protocol,
  options: { localTool?: boolean; after?: (run: number) => Promise<void> } = {},
) {
  // SDK default worker options: workflows stay cached between tasks, as in production.
  return withBenchWorker(
    ctx,
    { model: createBenchModel(), tools: [benchTool(0, { local: options.localTool ?? false })] },
    async (agents, worker) => {
      const samples: number[] = [];
      let last: AgentResult | undefined;
      let workflowId = '';
      for (let i = 0; i < protocol.warmup + protocol.runs; i++) {
        const started = performance.now();
        const handle = await agents.start({
          ...benchRun({ iterations: protocol.iterations }),
          model: BENCH_MODEL,
          maxIterations: protocol.iterations + 2,
        });
        workflowId = handle.workflowId;
        last = await within(handle.result(), runLimitMs(protocol.iterations), `run ${handle.workflowId}`);
        const ms = performance.now() - started;
        if (last.terminationReason !== 'success' || last.toolCalls !== protocol.iterations) {
          throw new Error(
            `run ${handle.workflowId} ended ${last.terminationReason} after ${last.toolCalls} tool calls: ${last.error ?? last.finalAnswer}`,
          );
        }
        if (i >= protocol.warmup) samples.push(ms / protocol.iterations);
        await options.after?.(i);
      }
      const lastRun = historyTiming(await agents.getHandle(workflowId).fetchHistory());
      return {
        samples,
        modelCalls: last?.modelCalls,
        toolCalls: last?.toolCalls,
        worker: workerSettings(worker),
        lastRun,
      };
    },
  );
}

async function runPeers(ctx: BenchContext, config: BenchConfig): Promise<PeerOutcome[]> {
  if (config.peers.names.length === 0) return [];
  const installError = await installPeers(config.peers.dir, ctx.log);
  const outcomes: PeerOutcome[] = [];
  for (const name of config.peers.names) {
    if (installError) {
      outcomes.push({ name, ok: false, stage: 'install', error: installError });
      continue;
    }
    ctx.log(`overhead: peer ${name}`);
    const args = {
      iterations: config.overhead.iterations,
      runs: config.overhead.runs,
      address: ctx.server.address,
      namespace: ctx.server.namespace,
    };
    outcomes.push(await runPeer(config.peers.dir, name, args, config.peers.timeoutMs));
  }
  return outcomes;
}
