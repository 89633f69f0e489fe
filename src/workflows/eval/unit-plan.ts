import type { CaseResult } from '../../domain/evaluation/case-result';
import { caseWorkflowId, unscoredResult } from '../../domain/evaluation/case-result';
import type { EvalCase } from '../../domain/evaluation/eval-case';
import type { EvalVariant, EvaluationInput, JudgeSettings } from '../../domain/evaluation/evaluation-input';
import type { Spent } from './eval-budget';

/** One unit: indexes into the plan's cases and variants, and the repeat (from 0). */
export type UnitRef = readonly [caseIndex: number, variantIndex: number, repeat: number];

/**
 * Units to run under one concurrency cap and one budget: the whole evaluation, or one shard of
 * it. It holds only the cases its units name, so a shard's input is a part of the evaluation's.
 */
export interface UnitPlan {
  evaluationId: string;
  evaluationName: string;
  repeats: number;
  cases: EvalCase[];
  variants: EvalVariant[];
  units: UnitRef[];
  concurrency: number;
  budget?: EvaluationInput['budget'];
  /** What earlier shards spent, charged against the budget before this plan starts. */
  spentBefore: Spent;
  scorers: string[];
  judge?: JudgeSettings;
  baseInput?: Record<string, unknown>;
}

/** How a plan ended: one result per unit, in the plan's order; `stopped` when not every unit ran. */
export interface PlanOutcome {
  results: CaseResult[];
  spent: Spent;
  stopped?: 'cancelled' | 'budget_spent';
}

/**
 * Every unit of an evaluation, repeat by repeat, case by case, variant by variant: a budget that
 * runs out leaves whole passes over the dataset, each case run by every variant, so what did run
 * still compares the variants on the same cases.
 */
export function planUnits(input: Pick<EvaluationInput, 'cases' | 'variants' | 'repeat'>): UnitRef[] {
  const units: UnitRef[] = [];
  for (let r = 0; r < input.repeat; r += 1)
    for (let c = 0; c < input.cases.length; c += 1)
      for (let v = 0; v < input.variants.length; v += 1) units.push([c, v, r]);
  return units;
}

/** The plan of `units` only, with only the cases they name (re-indexed). */
export function subPlan(plan: UnitPlan, units: readonly UnitRef[], spentBefore: Spent): UnitPlan {
  const kept = [...new Set(units.map(([c]) => c))];
  const index = new Map(kept.map((c, i) => [c, i]));
  return {
    ...plan,
    cases: kept.map((c) => plan.cases[c]!),
    units: units.map(([c, v, r]) => [index.get(c)!, v, r] as const),
    spentBefore,
  };
}

/** A unit that never started, and why. */
export function skippedResult(plan: UnitPlan, [c, v, r]: UnitRef, why: string): CaseResult {
  const theCase = plan.cases[c]!;
  const variant = plan.variants[v]!;
  return unscoredResult({
    caseId: theCase.id,
    variant: variant.id,
    repeat: r,
    workflowId: caseWorkflowId(plan.evaluationId, theCase, variant.id, r),
    status: 'skipped',
    note: why,
  });
}

export const SKIPPED_BUDGET = 'not started: the evaluation budget was spent';
export const SKIPPED_CANCELLED = 'not started: the evaluation was cancelled';
