import { at, colourOf, plotOf, svgStart, text, ticks, yAxis, line } from '../../src/eval/report/charts/chart-frame';
import { escapeHtml } from '../../src/eval/report/html-escape';
import { REPORT_CSS } from '../../src/eval/report/report-style';
import { rowsOf, type Row, type SideBySideResults } from './side-by-side-results';

/** One bar per engine for a row of the table; engines without a value are left out. */
function barChart(row: Row, engines: readonly string[], id: string): string {
  const plot = plotOf(640, 40 + engines.length * 26, { left: 230, right: 70, top: 16, bottom: 10 });
  const known = row.values.filter((v): v is number => v !== undefined);
  const max = Math.max(...known, 0) || 1;
  const x = (v: number) => plot.left + ((plot.right - plot.left) * v) / max;
  const bars = engines
    .map((name, i) => {
      const v = row.values[i];
      const y = plot.top + i * 26;
      const value = v === undefined ? 'not measured' : `${v.toFixed(v >= 100 ? 0 : 2)} ${row.unit}`;
      return (
        text(plot.left - 6, y + 14, name, 'text-anchor="end"') +
        (v === undefined
          ? ''
          : `<rect x="${at(plot.left)}" y="${at(y + 3)}" width="${at(Math.max(1, x(v) - plot.left))}" height="16" fill="${colourOf(i)}"/>`) +
        text((v === undefined ? plot.left : x(v)) + 4, y + 15, value)
      );
    })
    .join('');
  return `${svgStart(plot, id, `${row.label} (${row.unit})`)}${bars}</svg>`;
}

/** Step-to-step overhead p50 against the step index, one line per engine: a cost that grows shows as a slope. */
function slopeChart(results: SideBySideResults): string {
  const plot = plotOf(640, 280, { left: 60, right: 170, top: 16, bottom: 36 });
  const indices = [...new Set(results.engines.flatMap((e) => Object.keys(e.steps?.gaps ?? {}).map(Number)))].sort(
    (a, b) => a - b,
  );
  if (indices.length < 2) return '';
  const series = results.engines.map((e) => indices.map((i) => e.steps?.gaps[i]?.p50));
  const max = Math.max(...series.flat().filter((v): v is number => v !== undefined), 1);
  const yTicks = ticks(max);
  const top = yTicks.at(-1)!;
  const y = (v: number) => plot.bottom - ((plot.bottom - plot.top) * v) / top;
  const x = (k: number) => plot.left + ((plot.right - plot.left) * k) / (indices.length - 1);
  const lines = series
    .map((values, e) => {
      const points = values.flatMap((v, k) => (v === undefined ? [] : [`${at(x(k))},${at(y(v))}`]));
      const last = [...values].reverse().find((v) => v !== undefined);
      return points.length
        ? `<polyline points="${points.join(' ')}" fill="none" stroke="${colourOf(e)}" stroke-width="2"/>` +
            (last === undefined
              ? ''
              : text(plot.right + 6, y(last) + 4, results.engines[e]!.title, `fill="${colourOf(e)}"`))
        : '';
    })
    .join('');
  const xLabels = indices.map((i, k) => text(x(k), plot.bottom + 16, `step ${i}`, 'text-anchor="middle"')).join('');
  return (
    `${svgStart(plot, 'slope', 'Step-to-step overhead p50 (ms) by step index')}` +
    yAxis(plot, yTicks, y, (v) => `${v} ms`) +
    line(plot.left, plot.bottom, plot.right, plot.bottom, '#9ca3af') +
    xLabels +
    lines +
    '</svg>'
  );
}

/** One self-contained page: the table, then a chart per figure. No script, no external resource. */
export function renderSideBySideHtml(results: SideBySideResults): string {
  const titles = results.engines.map((e) => e.title);
  const rows = rowsOf(results);
  const table = `<table><thead><tr><th>metric</th>${titles.map((t) => `<th>${escapeHtml(t)}</th>`).join('')}</tr></thead><tbody>${rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(`${r.label} (${r.unit})`)}</td>${r.values
          .map((v) => `<td class="num">${v === undefined ? '—' : v.toFixed(Math.abs(v) >= 100 ? 0 : 2)}</td>`)
          .join('')}</tr>`,
    )
    .join('')}</tbody></table>`;
  const charts = rows
    .filter((r) => !r.label.startsWith('  ') && r.values.some((v) => v !== undefined) && !/p75|p95/.test(r.label))
    .map((r, i) => `<figure>${barChart(r, titles, `bar-${i}`)}</figure>`)
    .join('\n');
  const versions = results.engines
    .map((e) => `<li>${escapeHtml(e.title)}: ${escapeHtml(e.version ?? 'not measured')}</li>`)
    .join('');
  const servers = Object.entries(results.versions)
    .map(([k, v]) => `<li>${escapeHtml(k)}: ${escapeHtml(v)}</li>`)
    .join('');
  const listed = (pick: (e: SideBySideResults['engines'][number]) => string[]): string =>
    results.engines.flatMap((e) => pick(e).map((x) => `<li>${escapeHtml(`${e.title}: ${x}`)}</li>`)).join('');
  const errors = listed((e) => e.errors);
  const notes = listed((e) => e.notes);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"><title>Thoughtline side by side with durable engines</title><style>${REPORT_CSS}</style></head><body>
<h1>The same ReAct loop on every durable engine</h1>
<p>${escapeHtml(`${results.quick ? 'Quick sizes' : 'Full sizes'}, commit ${results.commit}, ${results.date}, ${Math.round(results.wallSeconds)} s in all. See docs/benchmarks.md for what each figure means and what each engine promises.`)}</p>
${table}
<h2>Step-to-step overhead by step index</h2><figure>${slopeChart(results)}</figure>
<h2>Each figure</h2>
${charts}
<h2>Versions</h2><ul>${versions}${servers}</ul>
${notes ? `<h2>Notes</h2><ul>${notes}</ul>` : ''}
${errors ? `<h2>Errors</h2><ul>${errors}</ul>` : ''}
</body></html>
`;
}
