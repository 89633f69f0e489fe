// A run's timeline (#/runs/<id>/timeline): the waterfall of GET /v1/runs/{id}/timeline, one row
// per lane so parallel calls sit side by side; a bar opens its step on the run page.
import { api } from './api.js';
import { detailsQuery } from './preferences.js';
import { failureInto, readAgainUntilAnswered } from './read-again.js';
import { timelineLayout } from './chart-layout.js';
import { h, replaceChildren } from './dom.js';
import { formatDateTime, formatDuration } from './format.js';
import { sourceNotice } from './store-notices.js';
import { s } from './svg.js';

const KINDS = { model: 'Model call', tool: 'Tool call', approval: 'Approval wait', sub_agent: 'Sub-agent' };

export function renderTimelinePage(root, { runId, view }) {
  const runHref = `#/runs/${encodeURIComponent(runId)}`;
  const message = h('p', { class: 'message', role: 'status' }, 'Loading…');
  const body = h('div', { class: 'timeline' });
  replaceChildren(
    root,
    h('p', {}, h('a', { href: runHref, class: 'back' }, '← The run')),
    h('section', { class: 'panel' }, h('h2', {}, `Timeline of ${runId}`), message, body),
  );
  let disposed = false;
  // Tried again while the server cannot answer (503), as the run page is.
  const stop = readAgainUntilAnswered(
    async () => {
      const timeline = await api(`/v1/runs/${encodeURIComponent(runId)}/timeline`, {
        query: { view, ...detailsQuery() },
      });
      if (disposed) return;
      message.classList.remove('error');
      message.textContent = `Started ${formatDateTime(timeline.startedAt)} · ${formatDuration(timeline.totalMs)} · ${timeline.bars.length} bar${timeline.bars.length === 1 ? '' : 's'}${timeline.omitted ? ` · ${timeline.omitted} more not drawn` : ''}`;
      replaceChildren(
        body,
        sourceNotice(timeline),
        legend(),
        waterfall(timeline, runHref),
        barTable(timeline, runHref),
      );
    },
    { failed: failureInto(message, () => disposed) },
  );
  return () => {
    disposed = true;
    stop();
  };
}

function legend() {
  return h(
    'p',
    { class: 'legend' },
    Object.entries(KINDS).map(([kind, name]) => h('span', { class: `legend-item kind-${kind}` }, name)),
  );
}

function waterfall(timeline, runHref) {
  if (timeline.bars.length === 0) return h('p', { class: 'note' }, 'No calls in this view of the run yet.');
  const layout = timelineLayout(timeline);
  const open = (bar) => {
    // A sub-agent opens its own run; any other bar the step that opened it.
    location.hash = bar.runId
      ? `#/runs/${encodeURIComponent(bar.runId)}/timeline`
      : `${runHref}?step=${bar.stepNumber}`;
  };
  return s(
    'svg',
    {
      class: 'waterfall',
      viewBox: `0 0 ${layout.width} ${layout.height}`,
      role: 'img',
      'aria-label': `Timeline: ${timeline.bars.length} calls in ${timeline.lanes} lanes`,
    },
    layout.ticks.map((tick) => [
      s('line', { class: 'grid', x1: tick.x, x2: tick.x, y1: 16, y2: layout.height }),
      s('text', { class: 'tick', x: tick.x, y: 12, 'text-anchor': 'middle' }, tick.label),
    ]),
    layout.bars.map((bar) =>
      s(
        'g',
        {
          class: `bar kind-${bar.kind}${bar.open ? ' open' : ''}${bar.failed ? ' failed' : ''}`,
          tabindex: 0,
          role: 'link',
          'aria-label': `${KINDS[bar.kind]}: ${bar.text}, step ${bar.stepNumber}`,
          dataset: { step: String(bar.stepNumber), kind: bar.kind, lane: String(Math.round((bar.y - 24) / 26)) },
          onclick: () => open(bar),
          onkeydown: (event) => {
            if (event.key === 'Enter') open(bar);
          },
        },
        s('rect', { x: bar.x, y: bar.y, width: bar.width, height: bar.height, rx: 3 }),
        bar.showText ? s('text', { class: 'bar-label', x: bar.x + 4, y: bar.y + bar.height - 6 }, bar.text) : null,
        s('title', {}, `${KINDS[bar.kind]}: ${bar.text} (step ${bar.stepNumber})`),
      ),
    ),
  );
}

/** Every bar as a row: what the chart can only hint at when bars are thin. */
function barTable(timeline, runHref) {
  if (timeline.bars.length === 0) return null;
  return h(
    'table',
    { class: 'runs timeline-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Step', 'Kind', 'What', 'Starts at', 'Took'].map((name) => h('th', {}, name)),
      ),
    ),
    h(
      'tbody',
      {},
      timeline.bars.map((bar) =>
        h(
          'tr',
          { dataset: { kind: bar.kind } },
          h('td', {}, h('a', { href: `${runHref}?step=${bar.stepNumber}` }, `#${bar.stepNumber}`)),
          h('td', {}, KINDS[bar.kind] ?? bar.kind),
          h(
            'td',
            {},
            bar.runId ? h('a', { href: `#/runs/${encodeURIComponent(bar.runId)}/timeline` }, bar.label) : bar.label,
            bar.success === false ? ' (failed)' : '',
          ),
          h('td', {}, formatDuration(bar.startMs)),
          h('td', {}, bar.endMs === undefined ? 'still open' : formatDuration(bar.endMs - bar.startMs)),
        ),
      ),
    ),
  );
}
