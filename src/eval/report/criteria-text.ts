import type { EvaluationSummary } from '../../domain/evaluation/stats/evaluation-summary';
import { estimateText } from './report-format';
import { timeTargetRows } from './time-target-text';
import { statusMark, targetText } from './render-markdown-report';

/**
 * The success criteria per variant as a plain-text table for a terminal, then seed 003's time
 * targets (p50 and p95 of the runs the variant's own model answered), with the pass rate as its
 * last row. Variant names come from the result: the caller writes it through terminalSafe.
 */
export function criteriaText(summary: EvaluationSummary): string {
  const variants = summary.variants;
  if (variants.length === 0) return 'No variant ran.\n';
  const rows: string[][] = [
    ['Criterion', 'Target', ...variants.map((v) => v.variant)],
    ...variants[0]!.criteria.map((c, i) => [
      c.label,
      targetText(c),
      ...variants.map((v) => {
        const own = v.criteria[i]!;
        return own.estimate ? `${estimateText(own.estimate)} ${statusMark(own)}` : statusMark(own);
      }),
    ]),
    ...timeTargetRows(variants).map((r) => [r.label, r.target, ...r.cells.map((c) => c.text)]),
    ['Pass rate (units that ran)', '', ...variants.map((v) => estimateText(v.passRate))],
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  const lines = rows.map((r) =>
    r
      .map((cell, col) => cell.padEnd(widths[col]!))
      .join('  ')
      .trimEnd(),
  );
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  return `${lines.join('\n')}\n`;
}
