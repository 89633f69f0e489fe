// Search across runs (#/search): GET /v1/search with the form's filters; each hit links to its
// run, with the steps whose text matched and their excerpts.
import { api, describeFailure } from './api.js';
import { detailsQuery } from './preferences.js';
import { h, replaceChildren } from './dom.js';
import { badgeOf } from './ending-view.js';
import { formatDateTime, formatUsd } from './format.js';

const STATES = ['', 'running', 'completed', 'failed', 'cancelled', 'terminated', 'timed_out'];
const FIELDS = [
  ['agent', 'Agent', 'text'],
  ['caller', 'Caller', 'text'],
  ['tool', 'Tool called', 'text'],
  ['text', 'Text in a step', 'search'],
  ['minCostUsd', 'Cost from ($)', 'number'],
  ['maxCostUsd', 'Cost to ($)', 'number'],
  ['startedAfter', 'Started after', 'datetime-local'],
  ['startedBefore', 'Started before', 'datetime-local'],
];

/** The API query of the form's values: empty fields left out, local date-times as ISO instants. Pure. */
export function searchQuery(values) {
  const query = {};
  for (const [key, value] of Object.entries(values)) {
    const text = typeof value === 'string' ? value.trim() : '';
    if (!text) continue;
    if (key === 'startedAfter' || key === 'startedBefore') {
      const ms = Date.parse(text);
      if (Number.isFinite(ms)) query[key] = new Date(ms).toISOString();
    } else query[key] = text;
  }
  return query;
}

export function renderSearchPage(root, { view }) {
  const inputs = Object.fromEntries(
    FIELDS.map(([name, label, type]) => [
      name,
      h('input', {
        name,
        type,
        'aria-label': label,
        placeholder: label,
        // The API's own bounds (names 200, text MAX_SEARCH_TEXT = 200): the form cannot send past them.
        ...(type === 'number' ? { min: 0, step: 'any' } : type === 'datetime-local' ? {} : { maxlength: 200 }),
      }),
    ]),
  );
  const state = h(
    'select',
    { name: 'state', 'aria-label': 'State' },
    STATES.map((value) => h('option', { value }, value || 'any state')),
  );
  const form = h(
    'form',
    { class: 'search-form' },
    FIELDS.map(([name, label]) => h('label', {}, h('span', {}, label), inputs[name])),
    h('label', {}, h('span', {}, 'State'), state),
    h('button', { type: 'submit', class: 'primary' }, 'Search'),
  );
  const message = h('p', { class: 'message', role: 'status' });
  const results = h('ol', { class: 'search-hits' });
  const more = h('button', { type: 'button', hidden: true }, 'More runs');
  let next;
  let disposed = false;
  const load = async (append) => {
    message.classList.remove('error');
    message.textContent = 'Searching…';
    const values = Object.fromEntries(Object.entries(inputs).map(([k, input]) => [k, input.value]));
    try {
      const page = await api('/v1/search', {
        query: {
          ...searchQuery({ ...values, state: state.value }),
          view,
          ...detailsQuery(),
          cursor: append ? next : undefined,
        },
      });
      if (disposed) return;
      if (!append) results.replaceChildren();
      for (const hit of page.hits) results.append(hitView(hit));
      next = page.next;
      more.hidden = !next;
      message.textContent = results.children.length ? '' : 'No run matches.';
    } catch (err) {
      if (disposed) return;
      message.textContent = describeFailure(err);
      message.classList.add('error');
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void load(false);
  });
  more.addEventListener('click', () => void load(true));
  replaceChildren(root, h('section', { class: 'panel' }, h('h2', {}, 'Search runs'), form, message, results, more));
  return () => {
    disposed = true;
  };
}

function hitView({ run, matches }) {
  const href = `#/runs/${encodeURIComponent(run.runId)}`;
  return h(
    'li',
    { class: 'search-hit', dataset: { runId: run.runId } },
    h('a', { href, class: 'hit-task' }, run.task || run.runId),
    h(
      'p',
      { class: 'run-meta' },
      badgeOf(run),
      ' ',
      [run.agentName, formatDateTime(run.startedAt), `${run.stepCount} steps`, formatUsd(run.costUsd), run.runId]
        .filter(Boolean)
        .join(' · '),
    ),
    matches.length
      ? h(
          'ul',
          { class: 'excerpts' },
          matches.map((match) =>
            h(
              'li',
              {},
              h('a', { href: `${href}?step=${match.stepNumber}` }, `#${match.stepNumber}`),
              ' ',
              h('span', { class: 'excerpt' }, match.excerpt),
            ),
          ),
        )
      : null,
  );
}
