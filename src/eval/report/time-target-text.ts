import type { TimeTargetSummary, VariantSummary } from '../../domain/evaluation/stats/evaluation-summary';
import { duration } from './report-format';

/** `< 2 s`. */
export const underText = (t: Pick<TimeTargetSummary, 'underMs'>): string => `< ${duration(t.underMs)} (p95)`;

/** `p50 420 ms, p95 1.3 s (n 12) met`; `not measured` without an observation. */
export function timeTargetCell(t: TimeTargetSummary): string {
  if (t.p50 === undefined || t.p95 === undefined) return 'not measured';
  return `p50 ${duration(t.p50)}, p95 ${duration(t.p95)} (n ${t.n}) ${t.status === 'met' ? 'met' : 'NOT MET'}`;
}

/**
 * The time targets as table rows beside the success criteria, one cell per variant, in the
 * first variant's order (every variant lists the same targets). Plain text: each renderer escapes.
 */
export function timeTargetRows(
  variants: readonly VariantSummary[],
): Array<{ label: string; target: string; source: string; cells: Array<{ text: string; status: string }> }> {
  const first = variants[0]?.timeTargets ?? [];
  return first.map((t) => ({
    label: t.label,
    target: underText(t),
    source: t.source,
    cells: variants.map((v) => {
      const own = v.timeTargets.find((o) => o.id === t.id);
      return own ? { text: timeTargetCell(own), status: own.status } : { text: 'not measured', status: 'not_measured' };
    }),
  }));
}
