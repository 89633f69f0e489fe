import {
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowCancellationType,
  ParentClosePolicy,
  isCancellation,
  setCurrentDetails,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import { FailureType } from '../../domain/run/failure-types';
import type { CaseResult, EvaluationProgress, EvaluationResult } from '../../domain/evaluation/case-result';
import { EvaluationInput, type EvaluationInputInit } from '../../domain/evaluation/evaluation-input';
import { failureMessage } from '../core/failure-message';
import { evaluationProgressQuery } from './eval-messages';
import type { Spent } from './eval-budget';
import { evaluationDetails } from './evaluation-details';
import { fitEvaluationResult } from './fit-evaluation-result';
import { UnitPool } from './unit-pool';
import {
  SKIPPED_BUDGET,
  SKIPPED_CANCELLED,
  planUnits,
  skippedResult,
  subPlan,
  type PlanOutcome,
  type UnitPlan,
} from './unit-plan';

/**
 * Units an evaluation runs itself; past this, it runs them in shard child workflows of this many
 * units each, one shard after another.
 *
 * Why shards rather than continue-as-new: each unit adds to the history that starts it a child
 * start holding its case (task and context, up to 32 KB), its result (up to 1 KB) and a few
 * events; 1,000 cases × 2 variants would pass the 4 MiB and 4,096 events where Temporal suggests
 * continuing. A shard keeps that in its own history (200 units: about 1,600 events), and this
 * workflow keeps one start and one compact result per shard. Continue-as-new would have to carry
 * every result so far and the whole dataset in each new run's input (up to 2 MiB each, close to
 * the payload limit), could not carry running children across (it drains them at every handover
 * just as a shard boundary does), and would split one evaluation over many runs in the Web UI.
 * Shards run one at a time, so the concurrency cap and the budget stay exact: each starts with
 * what the shards before it spent.
 */
export const DEFAULT_SHARD_SIZE = 200;

/** Internal settings (tests): a small shard size forces sharding. */
export interface EvaluationWorkflowOptions {
  shardSize?: number;
}

/**
 * Runs an evaluation: every case × variant × repeat as a child case workflow (which runs the
 * agent and scores it; evaluation-case-workflow.ts), at most `concurrency` at once under one
 * budget, and returns every unit's compact result in dataset order. Cancelling it cancels the
 * running units, waits for them to report and returns what finished, with status `cancelled`, so
 * a report can still be made. Deterministic; a restart replays the starts already made, and units'
 * ids are derived from the evaluation's, so none starts twice.
 */
export async function evaluationWorkflow(
  init: EvaluationInputInit,
  options: EvaluationWorkflowOptions = {},
): Promise<EvaluationResult> {
  const parsed = EvaluationInput.safeParse(init);
  if (!parsed.success)
    throw ApplicationFailure.create({
      type: FailureType.InvalidEvaluationInput,
      message: `Invalid evaluation input: ${parsed.error.message}`,
      nonRetryable: true,
    });
  const input = parsed.data;
  const startedAt = new Date().toISOString();
  const plan: UnitPlan = {
    evaluationId: workflowInfo().workflowId,
    evaluationName: input.name,
    repeats: input.repeat,
    cases: input.cases,
    variants: input.variants,
    units: planUnits(input),
    concurrency: input.concurrency,
    ...(input.budget ? { budget: input.budget } : {}),
    spentBefore: { costUsd: 0, tokens: 0 },
    scorers: input.scorers,
    ...(input.judge ? { judge: input.judge } : {}),
    ...(input.baseInput ? { baseInput: input.baseInput } : {}),
  };
  const shardSize = Math.max(1, options.shardSize ?? DEFAULT_SHARD_SIZE);
  const progress = new ProgressBoard(plan.units.length);
  const show = (state: string) =>
    setCurrentDetails(
      evaluationDetails(
        input,
        safely(() => progress.now()),
        state,
      ),
    );
  setHandler(evaluationProgressQuery, () => safely(() => progress.now()));
  show('starting');

  const outcome =
    plan.units.length <= shardSize
      ? await runHere(plan, progress, () => show('running'))
      : await runInShards(plan, shardSize, progress, () => show('running'));
  const status = outcome.stopped === 'cancelled' ? 'cancelled' : outcome.stopped ? 'budget_spent' : 'completed';
  show(status);
  return fitEvaluationResult({
    schemaVersion: 1,
    name: input.name,
    dataset: input.dataset,
    variants: input.variants,
    repeat: input.repeat,
    cases: input.cases.map((c) => ({ id: c.id, tags: c.tags })),
    status,
    startedAt,
    endedAt: new Date().toISOString(),
    spent: outcome.spent,
    results: outcome.results,
    ...(input.judge ? { judge: { provider: input.judge.model.provider, model: input.judge.model.model } } : {}),
  });
}

/** The units run by this workflow itself: the query reads the pool live. */
async function runHere(plan: UnitPlan, board: ProgressBoard, changed: () => void): Promise<PlanOutcome> {
  const pool = new UnitPool(plan, changed);
  board.live = () => pool.progress();
  const outcome = await pool.run();
  board.live = undefined;
  board.add(outcome);
  return outcome;
}

/**
 * The units run shard by shard (see DEFAULT_SHARD_SIZE). The query counts each shard once it
 * returns; while one runs, its units count as running (its own query has the detail).
 */
async function runInShards(
  plan: UnitPlan,
  size: number,
  board: ProgressBoard,
  changed: () => void,
): Promise<PlanOutcome> {
  const results: CaseResult[] = [];
  let spent: Spent = { ...plan.spentBefore };
  let stopped: PlanOutcome['stopped'];
  for (let from = 0; from < plan.units.length; from += size) {
    const units = plan.units.slice(from, from + size);
    if (stopped || CancellationScope.current().consideredCancelled) {
      const why = stopped === 'budget_spent' ? SKIPPED_BUDGET : SKIPPED_CANCELLED;
      stopped ??= 'cancelled';
      const skipped = units.map((u) => skippedResult(plan, u, why));
      results.push(...skipped);
      board.add({ results: skipped, spent: { costUsd: 0, tokens: 0 } });
      continue;
    }
    board.live = () => ({ ...emptyProgress(), total: 0, running: units.length });
    changed();
    const shard = subPlan(plan, units, spent);
    let outcome: PlanOutcome;
    try {
      const child = await startChild('evaluationShardWorkflow', {
        workflowId: `${plan.evaluationId}/shard-${from / size + 1}`,
        args: [shard],
        cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
        parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
        staticSummary: `shard ${from / size + 1} of ${Math.ceil(plan.units.length / size)}: units ${from + 1}–${from + units.length} of evaluation ${plan.evaluationName}`,
      });
      outcome = (await child.result()) as PlanOutcome;
    } catch (err) {
      // Cancelled before it reported: its units count as skipped. A shard that failed (it should
      // not: its pool turns every unit's ending into a result) leaves its units failed, and the
      // evaluation goes on with the next shard.
      const cancelled = isCancellation(err);
      const note = `its shard failed: ${failureMessage(err)}`.slice(0, 200);
      outcome = {
        results: units.map((u) =>
          cancelled ? skippedResult(plan, u, SKIPPED_CANCELLED) : { ...skippedResult(plan, u, note), status: 'failed' },
        ),
        spent,
        ...(cancelled ? { stopped: 'cancelled' as const } : {}),
      };
    }
    const before = spent;
    spent = outcome.spent;
    stopped = outcome.stopped;
    results.push(...outcome.results);
    board.live = undefined;
    board.add({
      results: outcome.results,
      spent: { costUsd: spent.costUsd - before.costUsd, tokens: spent.tokens - before.tokens },
    });
    changed();
  }
  return { results, spent, ...(stopped ? { stopped } : {}) };
}

/** What the progress query answers: the units counted so far, plus the part running now. */
class ProgressBoard {
  private counted = emptyProgress();
  live: (() => EvaluationProgress) | undefined;

  constructor(private readonly total: number) {}

  add(outcome: Pick<PlanOutcome, 'results' | 'spent'>): void {
    const c = this.counted;
    for (const r of outcome.results) {
      if (r.status === 'skipped') c.skipped += 1;
      else c.done += 1;
      if (r.passed) c.passed += 1;
    }
    c.spent = { costUsd: c.spent.costUsd + outcome.spent.costUsd, tokens: c.spent.tokens + outcome.spent.tokens };
  }

  now(): EvaluationProgress {
    const live = this.live?.() ?? emptyProgress();
    const c = this.counted;
    return {
      total: this.total,
      done: c.done + live.done,
      running: live.running,
      skipped: c.skipped + live.skipped,
      passed: c.passed + live.passed,
      spent: { costUsd: c.spent.costUsd + live.spent.costUsd, tokens: c.spent.tokens + live.spent.tokens },
    };
  }
}

function emptyProgress(): EvaluationProgress {
  return { total: 0, done: 0, running: 0, skipped: 0, passed: 0, spent: { costUsd: 0, tokens: 0 } };
}

/** A query never throws: whatever goes wrong reads as no progress. */
function safely(read: () => EvaluationProgress): EvaluationProgress {
  try {
    return read();
  } catch {
    return emptyProgress();
  }
}
