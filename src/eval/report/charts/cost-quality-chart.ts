import type { VariantSummary } from '../../../domain/evaluation/stats/evaluation-summary';
import { escapeHtml } from '../html-escape';
import { estimateText, usd } from '../report-format';
import { at, colourOf, line, plotOf, svgStart, text, ticks, yAxis } from './chart-frame';

/** One point per variant: cost per case across, pass rate up, with the pass rate's 95% interval. */
export function costQualityChart(variants: readonly VariantSummary[]): string {
  const plot = plotOf(460, 320, { left: 50, right: 30, top: 20, bottom: 44 });
  const xTicks = ticks(Math.max(...variants.map((v) => v.costUsd.perCase)) * 1.1);
  const xMax = xTicks[xTicks.length - 1]!;
  const x = (cost: number) => plot.left + (cost / xMax) * (plot.right - plot.left);
  const y = (v: number) => plot.bottom - v * (plot.bottom - plot.top);
  const parts = [
    svgStart(plot, 'chart-cost-quality', 'Cost per case against pass rate, per variant'),
    yAxis(plot, [0, 0.25, 0.5, 0.75, 1], y, (v) => `${v * 100}%`),
    ...xTicks.map(
      (t) =>
        line(x(t), plot.bottom, x(t), plot.bottom + 4, '#6b7280') +
        text(x(t), plot.bottom + 16, usd(t), 'text-anchor="middle"'),
    ),
    line(plot.left, plot.bottom, plot.right, plot.bottom, '#6b7280'),
    text((plot.left + plot.right) / 2, plot.height - 6, 'cost per case (USD)', 'text-anchor="middle"'),
  ];
  variants.forEach((v, i) => {
    if (!v.passRate) return;
    const cx = x(v.costUsd.perCase);
    const cy = y(v.passRate.value);
    if (v.passRate.interval)
      parts.push(line(cx, y(v.passRate.interval.low), cx, y(v.passRate.interval.high), colourOf(i), 1.5));
    parts.push(
      `<circle class="point" cx="${at(cx)}" cy="${at(cy)}" r="6" fill="${colourOf(i)}"><title>${escapeHtml(`${v.variant}: ${usd(v.costUsd.perCase)} per case, pass rate ${estimateText(v.passRate)}`)}</title></circle>`,
      // Labels in the right half go to the left of their point, so they stay inside the chart.
      cx > (plot.left + plot.right) / 2
        ? text(cx - 9, cy - 8, v.variant, 'text-anchor="end"')
        : text(cx + 9, cy - 8, v.variant),
    );
  });
  parts.push('</svg>');
  return parts.join('');
}
