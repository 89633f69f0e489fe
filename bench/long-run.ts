import { chainLength } from '../src/domain';
import { benchRun, createBenchModel } from './lib/bench-model';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { benchTool } from './lib/bench-tools';
import { BENCH_MODEL, withBenchWorker } from './lib/bench-worker';
import { measurement, type FigureBody } from './lib/figure';
import { runHistories } from './lib/run-histories';
import { runLimitMs, within } from './lib/within';

/** Temporal refuses a payload over this by default; a run must stay under it however long it goes. */
const PAYLOAD_LIMIT = { op: '<', value: 2 } as const;
/** Temporal's hard limit on one history. */
const HISTORY_LIMIT = { op: '<', value: 50 } as const;
const MIB = 1024 * 1024;
/** Steps in a page read at the start and at the end of the run's chain. */
const PAGE = 100;

/**
 * Figure 6: no ceiling on a run's length. One run of many iterations (10,000 at full size) with
 * observations of a few KB completes; its largest payload and its largest single history are
 * reported, and how long a page of its chain takes to read at its end (from the last Temporal
 * run) and at its start (joined back through every earlier run, each replayed by the worker).
 */
export async function measureLongRun(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const { iterations, observationBytes } = config.longRun;
  ctx.log(`longrun: one run of ${iterations} iterations with ${observationBytes}-byte observations`);
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
    const steps = chainLength(result.chain);
    const lastPage = await timed(() =>
      agents.chain(handle.workflowId, 'developer', { afterStep: steps - PAGE, limit: PAGE }),
    );
    const firstPage = await timed(() => agents.chain(handle.workflowId, 'developer', { afterStep: 0, limit: PAGE }));
    if (firstPage.value.steps[0]?.stepNumber !== 1 || lastPage.value.steps.at(-1)?.stepNumber !== steps)
      throw new Error(`the chain's pages do not reach its ends (${steps} steps)`);
    const totalBytes = runs.reduce((sum, r) => sum + r.bytes, 0);
    const largestPayload = Math.max(...runs.map((r) => r.largestEventBytes));
    const largestHistory = Math.max(...runs.map((r) => r.bytes));
    return {
      measurements: [
        measurement(`${iterations} iterations x ${observationBytes} B observations: completed`, wallMs / 1000, 's'),
        measurement('largest single event (a payload) in any of its histories', largestPayload / MIB, 'MiB', {
          target: PAYLOAD_LIMIT,
        }),
        measurement(`largest history of one Temporal run (${runs.length} runs)`, largestHistory / MIB, 'MiB', {
          target: HISTORY_LIMIT,
        }),
        measurement('history per iteration, all runs', totalBytes / iterations / 1024, 'KB'),
        measurement(`chain page of ${PAGE} steps at the end`, lastPage.ms, 'ms'),
        measurement(
          `chain page of ${PAGE} steps at the start (joined back through ${runs.length - 1} runs)`,
          firstPage.ms,
          'ms',
        ),
      ],
      details: {
        workflowId: handle.workflowId,
        iterations,
        observationBytes,
        steps,
        continuations: result.continuations,
        resultChainSteps: result.chain.steps.length,
        totalHistoryBytes: totalBytes,
        runs,
        settings:
          'default worker options (cached); maxToolResultChars twice the observation; other inputs at their defaults',
      },
    };
  });
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}
