import type { CaseResult } from '../case-result';
import type { CriterionId, CriterionSummary } from './evaluation-summary';

/**
 * What one criterion reads of one unit. `value` feeds the reported figure, `passed` the gate's
 * proportion test; undefined when the unit does not bear on it (no such score, not run).
 */
export interface CriterionReading {
  value: number;
  passed: boolean;
}

export interface SeedCriterion {
  id: CriterionId;
  label: string;
  /** What the gate's proportion counts: the share of units whose reading passed. */
  passedLabel: string;
  target: CriterionSummary['target'];
  /** `mean`: an average of values with a t interval; `share`: a proportion with Wilson's interval. */
  kind: 'mean' | 'share';
  /** Which scorer the readings come from, for this variant's units (coherence: the judge when one ran). */
  source(units: readonly CaseResult[]): string;
  /** A unit's reading; `all` units count for completion (a skipped unit did not complete). */
  read(unit: CaseResult, source: string): CriterionReading | undefined;
}

const scoreOf = (unit: CaseResult, scorer: string): CriterionReading | undefined => {
  const score = unit.status === 'scored' ? unit.scores.find((s) => s.scorer === scorer) : undefined;
  return score ? { value: score.value, passed: score.passed } : undefined;
};

const byScorer = (scorer: string) => ({
  source: () => scorer,
  read: (unit: CaseResult) => scoreOf(unit, scorer),
});

/** The success criteria of an agent (task completion, termination accuracy, …), in the order reports list them. */
export const SEED_CRITERIA: readonly SeedCriterion[] = [
  {
    id: 'coherence',
    label: 'Reasoning coherence',
    passedLabel: 'runs judged coherent',
    target: { op: '>=', value: 0.9 },
    kind: 'mean',
    // A model judge, when one ran, grades coherence better than the deterministic proxy.
    source: (units) => (units.some((u) => scoreOf(u, 'judge')) ? 'judge' : 'coherence'),
    read: scoreOf,
  },
  {
    id: 'termination_accuracy',
    label: 'Termination accuracy',
    passedLabel: 'termination accuracy',
    target: { op: '>=', value: 0.95 },
    kind: 'share',
    ...byScorer('termination_accuracy'),
  },
  {
    id: 'recovery',
    label: 'Error recovery',
    passedLabel: 'recovery after a failed call',
    target: { op: '>=', value: 0.8 },
    kind: 'share',
    ...byScorer('recovery'),
  },
  {
    id: 'iteration_share',
    label: 'Iterations used (share of the maximum)',
    passedLabel: 'runs using under half their iterations',
    target: { op: '<', value: 0.5 },
    kind: 'mean',
    source: () => 'iterations / maxIterations',
    read: (unit) => {
      if (unit.status !== 'scored' || unit.maxIterations === undefined) return undefined;
      const share = unit.iterations / unit.maxIterations;
      return { value: share, passed: share < 0.5 };
    },
  },
  {
    id: 'completion',
    label: 'Task completion',
    passedLabel: 'task completion',
    target: { op: '>', value: 0.8 },
    kind: 'share',
    source: () => 'ended as its case expects (success unless the case says otherwise), of all units',
    // A case that tests giving up (expects `failure`) completes its task by giving up: counting only
    // `success` marked a dataset whose every case passed "not met". Results without the score: success.
    read: (unit) => {
      const termination = unit.scores.find((s) => s.scorer === 'termination_accuracy');
      const done =
        unit.status === 'scored' && (termination ? termination.passed : unit.terminationReason === 'success');
      return { value: done ? 1 : 0, passed: done };
    },
  },
];

/** Whether `value` meets `target`. */
export function meetsTarget(value: number, target: CriterionSummary['target']): boolean {
  if (target.op === '>=') return value >= target.value;
  if (target.op === '>') return value > target.value;
  return value < target.value;
}
