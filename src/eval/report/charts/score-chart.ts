import type { Estimate, VariantSummary } from '../../../domain/evaluation/stats/evaluation-summary';
import { escapeHtml } from '../html-escape';
import { estimateText } from '../report-format';
import { at, colourOf, legend, line, plotOf, svgStart, text, yAxis } from './chart-frame';

/**
 * Grouped bars, one group per measure (the pass rate, then each scorer's mean), one bar per
 * variant, each with its 95% interval as a whisker. Scale 0–100%.
 */
export function scoreChart(variants: readonly VariantSummary[]): string {
  const measures = ['pass rate', ...new Set(variants.flatMap((v) => v.scorers.map((s) => s.scorer)))];
  const valueOf = (v: VariantSummary, measure: string): Estimate | undefined =>
    measure === 'pass rate' ? v.passRate : v.scorers.find((s) => s.scorer === measure)?.mean;
  const plot = plotOf(Math.max(460, 70 + measures.length * (variants.length * 14 + 20)), 320, {
    left: 50,
    right: 20,
    top: 30,
    bottom: 90,
  });
  const groupWidth = (plot.right - plot.left - 8) / measures.length;
  const y = (v: number) => plot.bottom - v * (plot.bottom - plot.top);
  const bar = (groupWidth - 16) / Math.max(1, variants.length);
  const parts = [
    svgStart(plot, 'chart-scores', 'Pass rate and mean score per scorer, per variant, with 95% intervals'),
    legend(
      plot,
      variants.map((v) => v.variant),
    ),
    yAxis(plot, [0, 0.25, 0.5, 0.75, 1], y, (v) => `${v * 100}%`),
  ];
  measures.forEach((measure, g) => {
    const x0 = plot.left + 8 + g * groupWidth;
    variants.forEach((v, i) => {
      const e = valueOf(v, measure);
      if (!e) return;
      const x = x0 + i * bar;
      parts.push(
        `<rect class="bar" x="${at(x)}" y="${at(y(e.value))}" width="${at(bar - 3)}" height="${at(Math.max(1, plot.bottom - y(e.value)))}" fill="${colourOf(i)}"><title>${escapeHtml(`${v.variant}, ${measure}: ${estimateText(e)}`)}</title></rect>`,
      );
      if (e.interval) {
        const cx = x + (bar - 3) / 2;
        parts.push(
          line(cx, y(e.interval.low), cx, y(e.interval.high), '#111827', 1.5),
          line(cx - 3, y(e.interval.low), cx + 3, y(e.interval.low), '#111827', 1.5),
          line(cx - 3, y(e.interval.high), cx + 3, y(e.interval.high), '#111827', 1.5),
        );
      }
    });
    const labelX = x0 + (groupWidth - 16) / 2;
    parts.push(
      text(
        labelX,
        plot.bottom + 14,
        measure,
        `text-anchor="end" transform="rotate(-30 ${at(labelX)} ${at(plot.bottom + 14)})"`,
      ),
    );
  });
  parts.push(line(plot.left, plot.bottom, plot.right, plot.bottom, '#6b7280'), '</svg>');
  return parts.join('');
}
