// Geometry of the viewer's charts, computed from API data without touching the DOM (so Node tests
// load it): the timeline's waterfall and the usage page's bar charts. svg.js draws what this lays out.
import { formatDuration, formatUsd } from './format.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * About `count` round tick values (1, 2 or 5 times a power of ten) from 0 to at least `max`;
 * whole numbers only with `integer` (counts of runs or tokens have no halves).
 */
export function niceTicks(max, count = 5, { integer = false } = {}) {
  const top = Number.isFinite(max) && max > 0 ? max : 1;
  const rough = top / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const nice = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const step = integer ? Math.max(1, nice) : nice;
  const ticks = [];
  for (let value = 0; value < top + step; value += step) {
    ticks.push(Number(value.toPrecision(12)));
    if (value >= top) break;
  }
  return ticks;
}

/**
 * The waterfall of a timeline (GET /v1/runs/{id}/timeline): one row per lane, bars scaled to the
 * run's span, an open bar drawn to the end and marked open, and the time axis's ticks.
 */
export function timelineLayout(timeline, { width = 920, left = 24, laneHeight = 26, top = 24 } = {}) {
  const totalMs = Math.max(1, Number(timeline?.totalMs) || 0);
  const plot = width - left * 2;
  const x = (ms) => left + (Math.min(Math.max(ms, 0), totalMs) / totalMs) * plot;
  const bars = (timeline?.bars ?? []).map((bar) => {
    const open = bar.endMs === undefined || bar.endMs === null;
    const end = open ? totalMs : bar.endMs;
    const duration = open ? undefined : bar.endMs - bar.startMs;
    const x0 = x(bar.startMs);
    const barWidth = Math.max(4, x(end) - x0);
    const text = `${bar.label} · ${open ? 'open' : formatDuration(duration)}`;
    return {
      kind: bar.kind,
      label: bar.label,
      text,
      // Written inside the bar only where it fits (about 6.5 px a character); the table lists every bar.
      showText: text.length * 6.5 + 8 <= barWidth,
      stepNumber: bar.stepNumber,
      runId: bar.runId,
      open,
      failed: bar.success === false,
      x: x0,
      y: top + bar.lane * laneHeight,
      width: barWidth,
      height: laneHeight - 6,
    };
  });
  const ticks = niceTicks(totalMs, 6)
    .filter((ms) => ms <= totalMs)
    .map((ms) => ({ x: x(ms), label: formatDuration(ms) ?? `${ms} ms` }));
  const lanes = Math.max(1, Number(timeline?.lanes) || 0);
  return { width, height: top + lanes * laneHeight + 8, bars, ticks };
}

/** Every UTC day from `from` to `to` (YYYY-MM-DD), at most 366. */
export function daysBetween(from, to) {
  const start = Date.parse(String(from).slice(0, 10));
  const end = Date.parse(String(to).slice(0, 10));
  const days = [];
  for (let ms = start; Number.isFinite(ms) && ms <= end && days.length < 366; ms += DAY_MS) {
    days.push(new Date(ms).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * A usage report (GET /v1/usage) as series: per day (every day of the range, zero when idle) and
 * per agent, each with runs, tokens (input + output) and cost.
 */
export function usageSeries(report) {
  const rows = Array.isArray(report?.rows) ? report.rows : [];
  const zero = () => ({ runs: 0, tokens: 0, costUsd: 0 });
  const add = (into, row) => {
    into.runs += row.runs ?? 0;
    into.tokens += (row.inputTokens ?? 0) + (row.outputTokens ?? 0);
    into.costUsd += row.costUsd ?? 0;
  };
  const byDay = new Map(daysBetween(report?.from, report?.to).map((day) => [day, zero()]));
  const byAgent = new Map();
  for (const row of rows) {
    if (!byDay.has(row.day)) byDay.set(row.day, zero());
    add(byDay.get(row.day), row);
    if (!byAgent.has(row.agentName)) byAgent.set(row.agentName, zero());
    add(byAgent.get(row.agentName), row);
  }
  const days = [...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([day, v]) => ({ key: day, ...v }));
  const agents = [...byAgent].sort(([a], [b]) => a.localeCompare(b)).map(([name, v]) => ({ key: name, ...v }));
  return { days, agents };
}

/** What a usage metric's values read as on a chart. */
export function formatMetric(metric, value) {
  if (metric === 'costUsd') return formatUsd(value) ?? '$0';
  return new Intl.NumberFormat('en', { maximumFractionDigits: 0 }).format(value);
}

/**
 * A vertical bar chart of `items[metric]`, one bar per item, with the y axis's ticks. Labels of
 * the x axis are thinned to about `maxLabels` so days do not overlap.
 */
export function barChartLayout(
  items,
  metric,
  { width = 920, height = 200, left = 64, bottom = 28, maxLabels = 12 } = {},
) {
  const max = Math.max(0, ...items.map((item) => item[metric] ?? 0));
  const ticks = niceTicks(max, 4, { integer: metric !== 'costUsd' });
  const top = ticks[ticks.length - 1] || 1;
  const plotH = height - bottom - 8;
  const slot = (width - left - 8) / Math.max(1, items.length);
  const every = Math.max(1, Math.ceil(items.length / maxLabels));
  const y = (value) => 8 + plotH - (value / top) * plotH;
  return {
    width,
    height,
    bars: items.map((item, i) => {
      const value = item[metric] ?? 0;
      // At most 60 px wide, so a chart of one or two agents does not turn into blocks.
      const barWidth = Math.max(1, Math.min(60, slot * 0.7));
      return {
        key: item.key,
        value,
        text: `${item.key}: ${formatMetric(metric, value)}`,
        x: left + i * slot + (slot - barWidth) / 2,
        y: y(value),
        width: barWidth,
        height: Math.max(0, 8 + plotH - y(value)),
        label: i % every === 0 ? item.key : undefined,
        labelX: left + i * slot + slot / 2,
      };
    }),
    ticks: ticks.map((value) => ({ y: y(value), label: formatMetric(metric, value) })),
    axisY: 8 + plotH,
    left,
  };
}
