import type { CaseResult, EvaluationResult } from '../case-result';
import { SEED_CRITERIA } from '../stats/seed-criteria';
import { DatasetMismatchError } from './dataset-mismatch-error';
import type { GateResult, Regression } from './gate-result';
import { proportionDropTest, type Counts } from './proportion-drop-test';

export interface GateOptions {
  /** The one-sided significance level of each test; default 0.05. */
  alpha?: number;
  /** Compare even when the datasets' sha256 differ (`--baseline-any-dataset`). */
  anyDataset?: boolean;
}

/**
 * The regression gate: per variant (matched by id), a one-sided test of the pass rate and of each
 * seed criterion's per-unit passes (proportionDropTest), where a drop significant at `alpha` is a
 * regression; and every case that passed all its runs in the baseline and fails all its runs now
 * is one too (a stable flip), so a deterministic evaluation with one repeat fails on a single
 * broken case that no test could call significant. Throws DatasetMismatchError when the datasets
 * differ, unless `anyDataset`. Pure.
 */
export function compareWithBaseline(
  baseline: EvaluationResult,
  current: EvaluationResult,
  options: GateOptions = {},
): GateResult {
  const alpha = options.alpha ?? 0.05;
  if (baseline.dataset.sha256 !== current.dataset.sha256 && !options.anyDataset)
    throw new DatasetMismatchError(baseline.dataset, current.dataset);
  const notes: string[] = [];
  if (baseline.dataset.sha256 !== current.dataset.sha256)
    notes.push('the datasets differ (--baseline-any-dataset): only cases in both are compared for flips.');
  const regressions: Regression[] = [];
  const currentIds = new Set(current.variants.map((v) => v.id));
  for (const { id } of baseline.variants) {
    if (!currentIds.has(id)) {
      notes.push(`variant ${id} is in the baseline but did not run now: not compared.`);
      continue;
    }
    const before = baseline.results.filter((r) => r.variant === id);
    const now = current.results.filter((r) => r.variant === id);
    regressions.push(...drops(id, before, now, alpha, notes), ...stableFlips(id, before, now, notes));
  }
  for (const { id } of current.variants)
    if (!baseline.variants.some((v) => v.id === id)) notes.push(`variant ${id} is new: no baseline to compare with.`);
  return { passed: regressions.length === 0, alpha, regressions, notes };
}

/** A measure as counts of units: the pass rate over units that ran, and each criterion's per-unit passes. */
function measures(units: readonly CaseResult[]): Array<{ measure: string; label: string; counts: Counts }> {
  const ran = units.filter((u) => u.status !== 'skipped');
  const out = [
    {
      measure: 'pass_rate',
      label: 'pass rate',
      counts: { successes: ran.filter((u) => u.passed).length, n: ran.length },
    },
  ];
  for (const c of SEED_CRITERIA) {
    const source = c.source(units);
    const readings = units.flatMap((u) => c.read(u, source) ?? []);
    out.push({
      measure: c.id,
      label: c.passedLabel,
      counts: { successes: readings.filter((r) => r.passed).length, n: readings.length },
    });
  }
  return out;
}

function drops(
  variant: string,
  before: readonly CaseResult[],
  now: readonly CaseResult[],
  alpha: number,
  notes: string[],
): Regression[] {
  const current = new Map(measures(now).map((m) => [m.measure, m.counts]));
  const out: Regression[] = [];
  for (const { measure, label, counts: b } of measures(before)) {
    const c = current.get(measure)!;
    if (b.n === 0 || c.n === 0) continue;
    const rateBefore = b.successes / b.n;
    const rateNow = c.successes / c.n;
    if (rateNow >= rateBefore) continue;
    const { pValue, test } = proportionDropTest(b, c);
    const change = `${label} fell from ${percent(rateBefore)} (${b.successes}/${b.n}) to ${percent(rateNow)} (${c.successes}/${c.n})`;
    const odds = `p = ${pValue.toPrecision(2)} by ${test === 'fisher' ? "Fisher's exact test" : 'a two-proportion z-test'}`;
    if (pValue < alpha)
      out.push({
        kind: 'significant_drop',
        variant,
        measure,
        baseline: { ...b, rate: rateBefore },
        current: { ...c, rate: rateNow },
        pValue,
        test,
        why: `${variant}: ${change}; ${odds}, under ${alpha}: a drop this large is unlikely to be noise.`,
      });
    else notes.push(`${variant}: ${change}, but ${odds}, not under ${alpha}: could be noise.`);
  }
  return out;
}

function stableFlips(
  variant: string,
  before: readonly CaseResult[],
  now: readonly CaseResult[],
  notes: string[],
): Regression[] {
  const out: Regression[] = [];
  const ranBefore = groupByCase(before.filter((u) => u.status !== 'skipped'));
  const ranNow = groupByCase(now.filter((u) => u.status !== 'skipped'));
  for (const [caseId, was] of ranBefore) {
    const is = ranNow.get(caseId);
    if (!is) {
      if (was.every((u) => u.passed))
        notes.push(`${variant}: case ${caseId} passed in the baseline and did not run now.`);
      continue;
    }
    if (!was.every((u) => u.passed) || is.some((u) => u.passed)) continue;
    out.push({
      kind: 'stable_flip',
      variant,
      caseId,
      workflowIds: is.map((u) => u.workflowId),
      why: `${variant}: case ${caseId} passed ${runs(was.length)} in the baseline and fails ${runs(is.length)} now: ${failureWhy(is[0]!)}`,
    });
  }
  return out;
}

const runs = (n: number): string => (n === 1 ? 'its one run' : `all ${n} runs`);

/** What went wrong in a failing unit, from its failed scores or its note. */
function failureWhy(unit: CaseResult): string {
  const failed = unit.scores.filter((s) => !s.passed).map((s) => `${s.scorer}: ${s.why}`);
  if (failed.length > 0) return failed.join('; ');
  return unit.note ?? `the run ${unit.status === 'failed' ? 'failed' : 'did not pass'}`;
}

function groupByCase(units: readonly CaseResult[]): Map<string, CaseResult[]> {
  const out = new Map<string, CaseResult[]>();
  for (const u of units) out.set(u.caseId, [...(out.get(u.caseId) ?? []), u]);
  return out;
}

const percent = (rate: number): string => `${(rate * 100).toFixed(1)}%`;
