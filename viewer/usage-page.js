// Usage (#/usage): runs, tokens and cost per day and per agent, from GET /v1/usage, drawn as SVG
// bar charts; the range is picked with two dates (UTC days, the report's own unit).
import { api, describeFailure } from './api.js';
import { barChartLayout, formatMetric, usageSeries } from './chart-layout.js';
import { h, replaceChildren } from './dom.js';
import { barChartSvg } from './svg.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const METRICS = [
  ['runs', 'Runs'],
  ['tokens', 'Tokens (input + output)'],
  ['costUsd', 'Cost'],
];

/** The query for a date range picked as YYYY-MM-DD: from the first day's start to the last day's end. */
export function usageQuery(fromDay, toDay) {
  return { from: `${fromDay}T00:00:00.000Z`, to: `${toDay}T23:59:59.999Z` };
}

export function renderUsagePage(root, { now = Date.now() } = {}) {
  const day = (ms) => new Date(ms).toISOString().slice(0, 10);
  const from = h('input', {
    type: 'date',
    name: 'from',
    value: day(now - 13 * DAY_MS),
    'aria-label': 'From',
    required: true,
  });
  const to = h('input', { type: 'date', name: 'to', value: day(now), 'aria-label': 'To', required: true });
  const message = h('p', { class: 'message', role: 'status' });
  const body = h('div', { class: 'usage' });
  const form = h('form', { class: 'filters' }, 'From ', from, ' to ', to, h('button', { type: 'submit' }, 'Show'));
  let disposed = false;
  const load = async () => {
    message.classList.remove('error');
    message.textContent = 'Loading…';
    try {
      const report = await api('/v1/usage', { query: usageQuery(from.value, to.value) });
      if (disposed) return;
      message.textContent = '';
      replaceChildren(body, totalsLine(report), charts(report));
    } catch (err) {
      if (disposed) return;
      body.replaceChildren();
      message.textContent = describeFailure(err);
      message.classList.add('error');
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void load();
  });
  replaceChildren(root, h('section', { class: 'panel' }, h('h2', {}, 'Usage'), form, message, body));
  void load();
  return () => {
    disposed = true;
  };
}

function totalsLine(report) {
  const t = report.totals;
  return h(
    'p',
    { class: 'usage-totals' },
    `${formatMetric('runs', t.runs)} runs · ${formatMetric('tokens', t.inputTokens + t.outputTokens)} tokens · ${formatMetric('costUsd', t.costUsd)}`,
  );
}

function charts(report) {
  const { days, agents } = usageSeries(report);
  const section = (title, items, by) =>
    h(
      'section',
      { class: 'usage-group', dataset: { by } },
      h('h3', {}, title),
      METRICS.map(([metric, name]) =>
        h(
          'figure',
          { class: 'usage-chart' },
          h('figcaption', {}, name),
          barChartSvg(barChartLayout(items, metric, { height: 180 }), { name: `${name} per ${by}`, metric }),
        ),
      ),
    );
  if (agents.length === 0) return h('p', { class: 'note' }, 'No runs in this range.');
  return [section('Per day', days, 'day'), section('Per agent', agents, 'agent')];
}
