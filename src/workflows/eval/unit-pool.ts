import {
  CancellationScope,
  ChildWorkflowCancellationType,
  ParentClosePolicy,
  condition,
  isCancellation,
  startChild,
} from '@temporalio/workflow';
import type { CaseResult, EvaluationProgress } from '../../domain/evaluation/case-result';
import { caseWorkflowId } from '../../domain/evaluation/case-result';
import { failureMessage } from '../core/failure-message';
import { caseBudgetLimits } from './case-agent-input';
import { EvalBudget, type BudgetGrant } from './eval-budget';
import { scoringWorkflowId, type EvaluationCaseInput } from './evaluation-case-workflow';
import {
  SKIPPED_BUDGET,
  SKIPPED_CANCELLED,
  skippedResult,
  type PlanOutcome,
  type UnitPlan,
  type UnitRef,
} from './unit-plan';

/**
 * Runs a plan's units as child case workflows, at most `concurrency` at once, each started with
 * its budget grant (eval-budget.ts). Once the budget is spent no unit starts and the rest are
 * skipped. Cancelling the workflow cancels the running units, waits for them to wind down and
 * report, and skips the rest: `run()` then still returns every result. `progress()` is what the
 * query and the Web UI show; `onChange` hears of every start and end.
 */
export class UnitPool {
  private readonly results: Array<CaseResult | undefined>;
  private running = 0;
  private settled = 0;
  private readonly budget: EvalBudget;

  constructor(
    private readonly plan: UnitPlan,
    private readonly onChange: () => void = () => undefined,
  ) {
    this.results = new Array<CaseResult | undefined>(plan.units.length).fill(undefined);
    this.budget = new EvalBudget(plan.budget, plan.spentBefore);
  }

  progress(): EvaluationProgress {
    const ended = this.results.filter((r): r is CaseResult => r !== undefined);
    return {
      total: this.plan.units.length,
      done: ended.filter((r) => r.status !== 'skipped').length,
      running: this.running,
      skipped: ended.filter((r) => r.status === 'skipped').length,
      passed: ended.filter((r) => r.passed).length,
      spent: { ...this.budget.spent },
    };
  }

  async run(): Promise<PlanOutcome> {
    const { units, concurrency } = this.plan;
    const inFlight: Array<Promise<void>> = [];
    let stopped: PlanOutcome['stopped'];
    let next = 0;
    try {
      while (next < units.length) {
        await condition(() => this.running < concurrency);
        const unit = units[next]!;
        const free = Math.min(concurrency - this.running, units.length - next);
        const limits = caseBudgetLimits(this.plan.baseInput, this.plan.cases[unit[0]]!);
        const claim = this.budget.claim(limits, free, this.running);
        if ('wait' in claim) {
          const before = this.settled;
          await condition(() => this.settled > before);
          continue;
        }
        if ('spent' in claim) {
          stopped = 'budget_spent';
          break;
        }
        inFlight.push(this.start(next, unit, claim.grant));
        next += 1;
      }
    } catch (err) {
      if (!isCancellation(err)) throw err;
    }
    // Cancelled units report as their runs wind down; awaiting them is allowed in a cancelled scope.
    await Promise.all(inFlight);
    if (CancellationScope.current().consideredCancelled) stopped = 'cancelled';
    const why = stopped === 'cancelled' ? SKIPPED_CANCELLED : SKIPPED_BUDGET;
    for (let i = next; i < units.length; i += 1) this.results[i] = skippedResult(this.plan, units[i]!, why);
    this.onChange();
    return { results: this.results as CaseResult[], spent: { ...this.budget.spent }, ...(stopped ? { stopped } : {}) };
  }

  /** Starts one unit; its promise ends (never rejects) once its result is in. */
  private async start(index: number, unit: UnitRef, grant: BudgetGrant): Promise<void> {
    this.running += 1;
    this.onChange();
    const result = await this.runUnit(unit, grant);
    this.results[index] = result;
    // A unit whose run reported is charged what it spent; one that never did, its whole grant.
    this.budget.settle(grant, result.terminationReason !== undefined ? result : undefined);
    this.running -= 1;
    this.settled += 1;
    this.onChange();
  }

  private async runUnit([c, v, r]: UnitRef, grant: BudgetGrant): Promise<CaseResult> {
    const { plan } = this;
    const theCase = plan.cases[c]!;
    const variant = plan.variants[v]!;
    const runId = caseWorkflowId(plan.evaluationId, theCase, variant.id, r);
    const input: EvaluationCaseInput = {
      evaluationId: plan.evaluationId,
      evaluationName: plan.evaluationName,
      repeats: plan.repeats,
      case: theCase,
      variant,
      repeat: r,
      grant,
      scorers: [...new Set([...plan.scorers, ...(theCase.scorers ?? [])])],
      ...(plan.judge ? { judge: plan.judge } : {}),
      ...(plan.baseInput ? { baseInput: plan.baseInput } : {}),
    };
    try {
      const child = await startChild('evaluationCaseWorkflow', {
        workflowId: scoringWorkflowId(runId),
        args: [input],
        cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
        parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
        staticSummary: `scores case ${theCase.id} · variant ${variant.id} · repeat ${r + 1}/${plan.repeats} (run ${runId})`,
      });
      return (await child.result()) as CaseResult;
    } catch (err) {
      const why = isCancellation(err)
        ? 'cancelled with the evaluation before its case workflow reported'
        : `its case workflow failed: ${failureMessage(err)}`;
      return { ...skippedResult(plan, [c, v, r], ''), status: 'failed', note: why.slice(0, 200) };
    }
  }
}
