import {
  at,
  colourOf,
  plotOf,
  svgStart,
  text,
  ticks,
  yAxis,
  line,
  type Plot,
} from '../../src/eval/report/charts/chart-frame';
import { escapeHtml } from '../../src/eval/report/html-escape';
import { duration } from '../../src/eval/report/report-format';
import type { SoakEnding, SoakFault, SoakReport } from './soak-report-types';

/** Every ending in the order the page shows them; a Record so a new ending fails to compile until it is named here. */
export const ENDING_LABEL: Readonly<Record<SoakEnding, string>> = {
  finished: 'finished',
  cancelled: 'cancelled',
  failed: 'failed',
  timed_out: 'timed out',
  other: 'other',
};

/** One line of a time chart: a value per row of `report.minutes`, undefined where there is none (drawn as a gap). */
interface Series {
  name: string;
  values: ReadonlyArray<number | undefined>;
}

const WIDTH = 940;
const LEFT = 70;
const RIGHT = 20;
const FAULT = '#b91c1c';

/** `1:35` from the start of load. */
export const clock = (seconds: number): string =>
  `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/** The legend wrapped into as many rows as its names need, so a soak with many processes keeps every name. */
function legendRows(names: readonly string[]): { svg: string; rows: number } {
  let x = LEFT;
  let row = 0;
  const svg = names
    .map((name, i) => {
      const width = 24 + Math.min(name.length, 40) * 6.5;
      if (x > LEFT && x + width > WIDTH - RIGHT) [x, row] = [LEFT, row + 1];
      const y = 8 + row * 16;
      const item = `<rect x="${at(x)}" y="${y}" width="10" height="10" fill="${colourOf(i)}"/>${text(x + 14, y + 9, name)}`;
      x += width;
      return item;
    })
    .join('');
  return { svg, rows: names.length ? row + 1 : 0 };
}

/** Consecutive values as one polyline each; a value alone between gaps as a dot, so it is not lost. */
function seriesPath(values: Series['values'], colour: string, x: (i: number) => number, y: (v: number) => number) {
  const runs: Array<Array<[number, number]>> = [[]];
  values.forEach((v, i) => {
    if (v === undefined) runs.push([]);
    else runs.at(-1)!.push([x(i), y(v)]);
  });
  return runs
    .filter((r) => r.length > 0)
    .map((r) =>
      r.length === 1
        ? `<circle cx="${at(r[0]![0])}" cy="${at(r[0]![1])}" r="2.5" fill="${colour}"/>`
        : `<polyline points="${r.map(([px, py]) => `${at(px)},${at(py)}`).join(' ')}" fill="none" stroke="${colour}" stroke-width="2"/>`,
    )
    .join('');
}

/**
 * A dashed vertical line per fault at its minute, labelled by kind; labels step down so close faults stay
 * readable. The label is its own `<text>`: chart-frame's `text()` always sets a fill, and a second would be a
 * duplicate attribute (the HTML parser keeps the first, so the label would lose its colour).
 */
function faultMarks(faults: readonly SoakFault[], plot: Plot, x: (minute: number) => number): string {
  return faults
    .map((f, i) => {
      const fx = x(f.atS / 60);
      const anchor = fx > plot.right - 110 ? 'end' : 'start';
      return (
        `<g class="fault"><title>${escapeHtml(`${f.kind} at ${clock(f.atS)}: ${f.detail}`)}</title>` +
        `<line x1="${at(fx)}" y1="${plot.top}" x2="${at(fx)}" y2="${plot.bottom}" stroke="${FAULT}" stroke-dasharray="4 3"/>` +
        `<text x="${at(fx + (anchor === 'end' ? -3 : 3))}" y="${at(plot.top + 10 + (i % 3) * 12)}" font-size="11" fill="${FAULT}" text-anchor="${anchor}">${escapeHtml(f.kind)}</text>` +
        '</g>'
      );
    })
    .join('');
}

/**
 * A chart over the soak's minutes, x = minute of load. A row's value is drawn at its minute's end
 * (minute 1 at x = 1), where the soak samples open runs and RSS, so a fault at `atS` falls between
 * the minute it hit and the next.
 */
function timeChart(
  report: SoakReport,
  id: string,
  title: string,
  series: readonly Series[],
  unit: (v: number) => string,
) {
  const legend = legendRows(series.map((s) => s.name));
  const plot = plotOf(WIDTH, 260 + legend.rows * 16, {
    left: LEFT,
    right: RIGHT,
    top: 14 + legend.rows * 16,
    bottom: 40,
  });
  const lastFault = Math.max(0, ...report.faults.map((f) => f.atS / 60));
  const xTicks = ticks(Math.max(1, report.settings.minutes, report.minutes.at(-1)?.minute ?? 0, lastFault));
  const x = (minute: number) => plot.left + ((plot.right - plot.left) * minute) / xTicks.at(-1)!;
  const known = series.flatMap((s) => s.values.filter((v): v is number => v !== undefined));
  const yTicks = ticks(Math.max(0, ...known));
  const y = (v: number) => plot.bottom - ((plot.bottom - plot.top) * v) / yTicks.at(-1)!;
  const xOf = (i: number) => x(report.minutes[i]!.minute);
  return (
    svgStart(plot, id, title) +
    legend.svg +
    yAxis(plot, yTicks, y, unit) +
    line(plot.left, plot.bottom, plot.right, plot.bottom, '#9ca3af') +
    xTicks.map((t) => text(x(t), plot.bottom + 16, String(t), 'text-anchor="middle"')).join('') +
    text((plot.left + plot.right) / 2, plot.height - 6, 'minute of load', 'text-anchor="middle"') +
    series.map((s, i) => seriesPath(s.values, colourOf(i), xOf, y)).join('') +
    faultMarks(report.faults, plot, x) +
    '</svg>'
  );
}

/** Runs started a minute, and one line per ending that happened at all (a minute without that ending counts 0). */
export function runsChart(report: SoakReport): string {
  const endings = (Object.keys(ENDING_LABEL) as SoakEnding[]).filter((e) => report.minutes.some((m) => m.ended[e]));
  const series: Series[] = [
    { name: 'started', values: report.minutes.map((m) => m.started) },
    ...endings.map((e) => ({ name: `ended ${ENDING_LABEL[e]}`, values: report.minutes.map((m) => m.ended[e] ?? 0) })),
  ];
  return timeChart(report, 'chart-runs', 'Runs started and ended per minute', series, String);
}

/** The two latencies' p50 and p99; a minute in which no run reached that point has no value. */
export function latencyChart(report: SoakReport): string {
  const pick = (of: 'firstStepMs' | 'endToEndMs', p: 'p50' | 'p99') => report.minutes.map((m) => m[of]?.[p]);
  const series: Series[] = [
    { name: 'start to first step p50', values: pick('firstStepMs', 'p50') },
    { name: 'start to first step p99', values: pick('firstStepMs', 'p99') },
    { name: 'end to end p50', values: pick('endToEndMs', 'p50') },
    { name: 'end to end p99', values: pick('endToEndMs', 'p99') },
  ];
  return timeChart(
    report,
    'chart-latency',
    'Start to first step and end to end, p50 and p99, per minute',
    series,
    duration,
  );
}

/** Every process the soak saw, in order of first appearance, so a process keeps its colour on both charts. */
const processesOf = (report: SoakReport): string[] => [
  ...new Set(report.minutes.flatMap((m) => Object.keys(m.processes))),
];

const perProcess = (report: SoakReport, metric: 'rssMb' | 'cpuPct'): Series[] =>
  processesOf(report).map((name) => ({ name, values: report.minutes.map((m) => m.processes[name]?.[metric]) }));

export const rssChart = (report: SoakReport): string =>
  timeChart(report, 'chart-rss', 'Resident memory per process (MB)', perProcess(report, 'rssMb'), (v) => `${v} MB`);

export const cpuChart = (report: SoakReport): string =>
  timeChart(report, 'chart-cpu', 'CPU per process (% of one core)', perProcess(report, 'cpuPct'), (v) => `${v}%`);

export const openChart = (report: SoakReport): string =>
  timeChart(
    report,
    'chart-open',
    'Runs open at each minute’s end',
    [{ name: 'open', values: report.minutes.map((m) => m.open) }],
    String,
  );
