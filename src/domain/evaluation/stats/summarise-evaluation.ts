import type { CaseResult, EvaluationResult } from '../case-result';
import type {
  CriterionSummary,
  Estimate,
  EvaluationSummary,
  ScorerSummary,
  VariantSummary,
} from './evaluation-summary';
import { mean, meanInterval } from './mean-interval';
import { passAtK } from './pass-at-k';
import { percentile } from './percentile';
import { wilsonInterval } from './proportion-interval';
import { timeTargetSummaries } from './time-targets';
import { meetsTarget, SEED_CRITERIA, type SeedCriterion } from './seed-criteria';

/** Built-in scorers first, in this order; users' scorers after them by name. */
const SCORER_ORDER: readonly string[] = [
  'termination_accuracy',
  'answer_match',
  'trajectory',
  'forbidden_tools',
  'recovery',
  'iteration_share',
  'latency',
  'cost',
  'grounding',
  'task_choice',
  'coherence',
  'judge',
];

/**
 * The figures of an evaluation, per variant: completion, pass rate, per-scorer means, pass@k,
 * latency percentiles, cost and tokens per case, and seed 001's criteria against their targets.
 * Pure and deterministic; every interval is 95% (see Estimate for which kind).
 */
export function summariseEvaluation(result: EvaluationResult): EvaluationSummary {
  return {
    schemaVersion: 1,
    name: result.name,
    dataset: result.dataset,
    status: result.status,
    repeat: result.repeat,
    cases: result.cases.length,
    spent: result.spent,
    variants: result.variants.map((v) =>
      summariseVariant(
        v.id,
        result.results.filter((r) => r.variant === v.id),
        result.cases.length * result.repeat,
        result.cases,
      ),
    ),
  };
}

function summariseVariant(
  variant: string,
  units: readonly CaseResult[],
  planned: number,
  cases: EvaluationResult['cases'],
): VariantSummary {
  const ran = units.filter((u) => u.status !== 'skipped');
  const scored = units.filter((u) => u.status === 'scored');
  const passed = ran.filter((u) => u.passed).length;
  const latencies = scored.map((u) => u.latencyMs);
  const total = Math.max(planned, units.length);
  const skipped = units.filter((u) => u.status === 'skipped').length + (total - units.length);
  return {
    variant,
    units: { total, scored: scored.length, failed: ran.length - scored.length, skipped, passed },
    ...(ran.length > 0 ? { passRate: share(passed, ran.length) } : {}),
    passAtK: passAtKs(ran),
    scorers: scorerSummaries(scored),
    criteria: SEED_CRITERIA.map((c) => criterionSummary(c, units, total)),
    timeTargets: timeTargetSummaries(units, cases),
    ...(latencies.length > 0
      ? {
          latencyMs: {
            p50: percentile(latencies, 0.5)!,
            p90: percentile(latencies, 0.9)!,
            p95: percentile(latencies, 0.95)!,
          },
        }
      : {}),
    byTag: tagPassRates(ran, cases),
    costUsd: { perCase: ran.length ? mean(ran.map((u) => u.costUsd)) : 0, total: sum(units.map((u) => u.costUsd)) },
    tokens: { perCase: ran.length ? mean(ran.map((u) => u.tokens)) : 0, total: sum(units.map((u) => u.tokens)) },
  };
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/** A proportion with Wilson's interval. */
function share(successes: number, n: number): Estimate {
  return { value: successes / n, interval: wilsonInterval(successes, n)!, n, over: 'wilson' };
}

/**
 * A mean of values in [0, 1] (scores, shares) with a t interval, clamped to [0, 1], over repeats when there are two or more (each repeat's mean is one
 * observation: how much the figure moves when the evaluation runs again), else over the units.
 */
export function meanOverRepeats(readings: ReadonlyArray<{ repeat: number; value: number }>): Estimate | undefined {
  if (readings.length === 0) return undefined;
  const byRepeat = new Map<number, number[]>();
  for (const r of readings) byRepeat.set(r.repeat, [...(byRepeat.get(r.repeat) ?? []), r.value]);
  const overRepeats = byRepeat.size >= 2;
  const observations = overRepeats
    ? [...byRepeat.values()].map((values) => mean(values))
    : readings.map((r) => r.value);
  const m = meanInterval(observations, { lowest: 0, highest: 1 })!;
  return {
    value: m.value,
    ...(m.interval ? { interval: m.interval } : {}),
    n: readings.length,
    over: overRepeats ? 'repeats' : 'units',
  };
}

function scorerSummaries(scored: readonly CaseResult[]): ScorerSummary[] {
  const names = [...new Set(scored.flatMap((u) => u.scores.map((s) => s.scorer)))].sort(
    (a, b) => rank(a) - rank(b) || a.localeCompare(b),
  );
  return names.map((scorer) => {
    const readings = scored.flatMap((u) =>
      u.scores.filter((s) => s.scorer === scorer).map((s) => ({ repeat: u.repeat, value: s.value, passed: s.passed })),
    );
    const passed = readings.filter((r) => r.passed).length;
    return { scorer, mean: meanOverRepeats(readings)!, passed, passRate: share(passed, readings.length) };
  });
}

const rank = (scorer: string): number => {
  const at = SCORER_ORDER.indexOf(scorer);
  return at === -1 ? SCORER_ORDER.length : at;
};

function criterionSummary(c: SeedCriterion, units: readonly CaseResult[], planned: number): CriterionSummary {
  const source = c.source(units);
  const readings = units.flatMap((u) => {
    const r = c.read(u, source);
    return r ? [{ repeat: u.repeat, ...r }] : [];
  });
  // Completion counts every planned unit: one that never ran did not complete.
  const n = c.id === 'completion' ? planned : readings.length;
  const estimate =
    n === 0
      ? undefined
      : c.kind === 'share'
        ? share(readings.filter((r) => r.passed).length, n)
        : meanOverRepeats(readings);
  return {
    id: c.id,
    label: c.label,
    target: c.target,
    source,
    ...(estimate ? { estimate } : {}),
    status: estimate ? (meetsTarget(estimate.value, c.target) ? 'met' : 'not_met') : 'not_measured',
  };
}

/** pass@k for k = 1 … the most runs any case has, each averaged over the cases with at least k runs. */
function passAtKs(ran: readonly CaseResult[]): VariantSummary['passAtK'] {
  const perCase = new Map<string, { n: number; c: number }>();
  for (const u of ran) {
    const entry = perCase.get(u.caseId) ?? { n: 0, c: 0 };
    perCase.set(u.caseId, { n: entry.n + 1, c: entry.c + (u.passed ? 1 : 0) });
  }
  const most = Math.max(0, ...[...perCase.values()].map((e) => e.n));
  const out: VariantSummary['passAtK'] = [];
  for (let k = 1; k <= most; k++) {
    const eligible = [...perCase.values()].filter((e) => e.n >= k);
    out.push({ k, value: mean(eligible.map((e) => passAtK(e.n, e.c, k))), cases: eligible.length });
  }
  return out;
}

/** The pass rate of the units that ran, per tag of their case. */
function tagPassRates(ran: readonly CaseResult[], cases: EvaluationResult['cases']): VariantSummary['byTag'] {
  const tagsOf = new Map(cases.map((c) => [c.id, c.tags]));
  const tags = [...new Set(cases.flatMap((c) => c.tags))];
  return tags.flatMap((tag) => {
    const tagged = ran.filter((u) => tagsOf.get(u.caseId)?.includes(tag));
    return tagged.length > 0 ? [{ tag, passRate: share(tagged.filter((u) => u.passed).length, tagged.length) }] : [];
  });
}
