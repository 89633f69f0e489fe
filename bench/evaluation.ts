import { randomUUID } from 'node:crypto';
import { temporal } from '@temporalio/proto';
import { billableActions, type BillableActions } from '../src/client/runs/billable-actions';
import type { EvaluationInputInit, EvaluationResult } from '../src/domain/evaluation';
import { EVALUATION_WORKFLOW } from '../src/workflows/eval/eval-messages';
import { benchRun, createBenchModel } from './lib/bench-model';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { benchTool } from './lib/bench-tools';
import { BENCH_MODEL, withBenchWorker } from './lib/bench-worker';
import { errorText, measurement, type FigureBody, type Measurement } from './lib/figure';
import { quantile } from './lib/stats';

type History = temporal.api.history.v1.IHistory;

/** What one Temporal execution of an evaluation's tree costs, by workflow type. */
interface Execution {
  workflowId: string;
  type: string;
  events: number;
  bytes: number;
  actions: BillableActions;
}

/**
 * Figure 10: an evaluation of `units` one-tool cases (the bench model: one tool call, then
 * finish), concurrency `concurrency`. It reports the wall time, the evaluation's own history (so
 * 1,000 cases are seen to fit), bytes per case result, and the billable actions of the whole tree
 * (evaluation, shards, case workflows, agent runs) per unit, beside one plain agent run's.
 */
export async function measureEvaluation(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const { units, concurrency } = config.evaluation;
  const errors: string[] = [];
  const rows: Measurement[] = [];
  const details: Record<string, unknown> = { units, concurrency };
  await withBenchWorker(ctx, { model: createBenchModel(), tools: [benchTool(0)] }, async (agents) => {
    const plain = await agents.start({ ...benchRun({ iterations: 1 }), model: BENCH_MODEL });
    await plain.result();
    const plainActions = billableActions(await plain.fetchHistory()).total;

    const evaluationId = `bench-eval-${randomUUID()}`;
    const input: EvaluationInputInit = {
      name: 'bench',
      dataset: { name: 'bench', sha256: 'bench' },
      // The bench model gives no thoughts (a format error the loop reports), so coherence is not asked of it.
      cases: Array.from({ length: units }, (_, i) => ({
        id: `case-${i + 1}`,
        task: `Benchmark case ${i + 1}`,
        expect: { minCoherence: 0 },
      })),
      variants: [{ id: 'bench', model: BENCH_MODEL }],
      concurrency,
      baseInput: { systemPrompt: benchRun({ iterations: 1 }).systemPrompt, maxIterations: 4 },
    };
    ctx.log(`evaluation: ${units} cases, concurrency ${concurrency}`);
    const started = Date.now();
    const handle = await ctx.client.workflow.start(EVALUATION_WORKFLOW, {
      taskQueue: agents.taskQueue,
      workflowId: evaluationId,
      args: [input],
    });
    const result = (await handle.result()) as EvaluationResult;
    const wallMs = Date.now() - started;
    const scored = result.results.filter((r) => r.status === 'scored' && r.passed).length;
    const failed = result.results.find((r) => !r.passed);
    if (failed)
      errors.push(
        `${units - scored} of ${units} units did not pass; the first: ${
          failed.scores
            .filter((s) => !s.passed)
            .map((s) => `${s.scorer}: ${s.why}`)
            .join('; ') || failed.note
        }`,
      );
    const resultBytes = result.results.map((r) => Buffer.byteLength(JSON.stringify(r)));

    // The tree, walked from the evaluation's history through every child it started.
    const tree = await walk(ctx, evaluationId);
    const byType = (type: string) => tree.filter((e) => e.type === type);
    const sum = (list: Execution[], f: (e: Execution) => number) => list.reduce((n, e) => n + f(e), 0);
    const parent = tree[0]!;
    const shards = byType('evaluationShardWorkflow');
    const caseWfs = byType('evaluationCaseWorkflow');
    const agentRuns = byType('agentWorkflow');
    const totalActions = sum(tree, (e) => e.actions.total);
    rows.push(
      measurement(`wall time of ${units} cases at concurrency ${concurrency}`, wallMs / 1000, 's'),
      measurement('units per second', units / (wallMs / 1000), 'units/s'),
      measurement('evaluation history: events', parent.events, 'events', {
        target: { op: '<', value: 51_200, note: "Temporal's per-history limit" },
      }),
      measurement('evaluation history: bytes', parent.bytes / 1024 / 1024, 'MiB', {
        target: { op: '<', value: 50, note: "Temporal's per-history limit" },
      }),
      measurement('largest shard history', Math.max(0, ...shards.map((s) => s.bytes)) / 1024 / 1024, 'MiB'),
      measurement('case result in the evaluation, mean', mean(resultBytes), 'bytes'),
      measurement('case result in the evaluation, p99', quantile(resultBytes, 0.99), 'bytes'),
      measurement('billable actions per unit, whole tree', totalActions / units, 'actions'),
      measurement('billable actions of one plain agent run', plainActions, 'actions'),
      measurement(
        'evaluation overhead per unit (tree less a plain run each)',
        totalActions / units - plainActions,
        'actions',
      ),
    );
    details['executions'] = {
      evaluation: { events: parent.events, bytes: parent.bytes, actions: parent.actions },
      shards: shards.length,
      caseWorkflows: caseWfs.length,
      agentRuns: agentRuns.length,
      caseWorkflowActionsEach: caseWfs[0]?.actions,
    };
  }).catch((err: unknown) => errors.push(errorText(err)));
  return { measurements: rows, errors, details };
}

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/** Every execution of the tree under `rootId`, the root first, by the child starts in each history. */
async function walk(ctx: BenchContext, rootId: string): Promise<Execution[]> {
  const out: Execution[] = [];
  const queue = [rootId];
  while (queue.length > 0) {
    const batch = queue.splice(0, 32);
    const histories = await Promise.all(
      batch.map(async (id) => ({ id, history: await ctx.client.workflow.getHandle(id).fetchHistory() })),
    );
    for (const { id, history } of histories) {
      out.push(execution(id, history));
      for (const event of history.events ?? []) {
        const child = event.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
        if (child) queue.push(child);
      }
    }
  }
  return out;
}

function execution(workflowId: string, history: History): Execution {
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  return {
    workflowId,
    type: started?.workflowType?.name ?? '?',
    events: history.events?.length ?? 0,
    bytes: temporal.api.history.v1.History.encode(history).finish().length,
    actions: billableActions(history),
  };
}
