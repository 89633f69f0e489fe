import type { CaseResult } from '../../../domain/evaluation/case-result';
import type { VariantSummary } from '../../../domain/evaluation/stats/evaluation-summary';
import { escapeHtml } from '../html-escape';
import { duration } from '../report-format';
import { at, colourOf, line, plotOf, svgStart, text, ticks } from './chart-frame';

const ROW = 56;

/**
 * The latency of every scored unit, one row per variant, each unit a dot (spread up and down by
 * its position, so equal latencies stay visible), with the variant's p50, p90 and p95 marked.
 */
export function latencyChart(variants: readonly VariantSummary[], units: readonly CaseResult[]): string {
  const plot = plotOf(940, 50 + variants.length * ROW, { left: 110, right: 30, top: 10, bottom: 40 });
  const scored = units.filter((u) => u.status === 'scored');
  const xTicks = ticks(Math.max(1, ...scored.map((u) => u.latencyMs)) * 1.05);
  const xMax = xTicks[xTicks.length - 1]!;
  const x = (ms: number) => plot.left + (ms / xMax) * (plot.right - plot.left);
  const parts = [
    svgStart(plot, 'chart-latency', 'Latency of every scored run, per variant, with p50, p90 and p95'),
    ...xTicks.map(
      (t) =>
        line(x(t), plot.top, x(t), plot.bottom, '#e5e7eb') +
        text(x(t), plot.bottom + 16, duration(t), 'text-anchor="middle"'),
    ),
    line(plot.left, plot.bottom, plot.right, plot.bottom, '#6b7280'),
    text((plot.left + plot.right) / 2, plot.height - 6, 'latency per run', 'text-anchor="middle"'),
  ];
  variants.forEach((v, i) => {
    const middle = plot.top + ROW * i + ROW / 2;
    parts.push(text(plot.left - 8, middle + 4, v.variant, 'text-anchor="end"'));
    scored
      .filter((u) => u.variant === v.variant)
      .forEach((u, k) => {
        const dy = ((k * 7) % 11) * 3 - 15;
        parts.push(
          `<circle class="dot" cx="${at(x(u.latencyMs))}" cy="${at(middle + dy)}" r="3" fill="${colourOf(i)}" fill-opacity="0.6"><title>${escapeHtml(`${u.caseId} run ${u.repeat + 1}: ${duration(u.latencyMs)}`)}</title></circle>`,
        );
      });
    if (!v.latencyMs) return;
    // Marks closer than a label's width share one label ("p90 p95").
    const labels: Array<{ x: number; text: string }> = [];
    for (const [name, ms] of [
      ['p50', v.latencyMs.p50],
      ['p90', v.latencyMs.p90],
      ['p95', v.latencyMs.p95],
    ] as const) {
      parts.push(line(x(ms), middle - 20, x(ms), middle + 20, '#111827', 1.5));
      const previous = labels[labels.length - 1];
      if (previous && x(ms) - previous.x < 24) previous.text += ` ${name}`;
      else labels.push({ x: x(ms), text: name });
    }
    for (const label of labels) parts.push(text(label.x + 2, middle - 22, label.text));
  });
  parts.push('</svg>');
  return parts.join('');
}
