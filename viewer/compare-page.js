// Two runs side by side (#/compare/<a>/<b>): GET /v1/runs/{a}/compare/{b} in the person's view,
// one row per iteration aligned by number, what differs named and its cells marked.
import { api } from './api.js';
import { detailsQuery } from './preferences.js';
import { failureInto, readAgainUntilAnswered } from './read-again.js';
import { h, replaceChildren } from './dom.js';
import { formatUsd } from './format.js';

const runHref = (runId) => `#/runs/${encodeURIComponent(runId)}`;

export function renderComparePage(root, { a, b, view }) {
  const message = h('p', { class: 'message', role: 'status' }, 'Loading…');
  const body = h('div', { class: 'comparison' });
  replaceChildren(
    root,
    h('p', {}, h('a', { href: runHref(a), class: 'back' }, '← The first run')),
    h('section', { class: 'panel' }, h('h2', {}, 'Two runs side by side'), message, body),
  );
  let disposed = false;
  // Tried again while the server cannot answer (503), as the run page is.
  const stop = readAgainUntilAnswered(
    async () => {
      const c = await api(`/v1/runs/${encodeURIComponent(a)}/compare/${encodeURIComponent(b)}`, {
        query: { view, ...detailsQuery() },
      });
      if (disposed) return;
      message.classList.remove('error');
      message.textContent = firstDifferenceLine(c);
      replaceChildren(body, comparisonTable(c));
    },
    { failed: failureInto(message, () => disposed) },
  );
  return () => {
    disposed = true;
    stop();
  };
}

/** "Same through iteration 2; they differ from iteration 3." */
export function firstDifferenceLine(c) {
  const first = c.firstDifference;
  if (first === undefined)
    return c.answerDiffers ? 'Every iteration is the same; the answers differ.' : 'Every iteration is the same.';
  return first <= 1
    ? `They differ from iteration ${first}.`
    : `Same through iteration ${first - 1}; they differ from iteration ${first}.`;
}

function comparisonTable(c) {
  return h(
    'table',
    { class: 'compare' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, runHead('A', c.a)), h('th', {}, runHead('B', c.b)))),
    h(
      'tbody',
      {},
      c.iterations.map((it) => {
        const differs = it.differences.length > 0;
        const what = it.differences[0] === 'missing' ? `only in ${it.a ? 'A' : 'B'}` : it.differences.join(', ');
        return h(
          'tr',
          { class: differs ? 'differs' : 'same', dataset: { iteration: String(it.iteration) } },
          h(
            'th',
            { scope: 'row' },
            `Iteration ${it.iteration}`,
            h('span', { class: 'difference' }, differs ? `≠ ${what}` : '='),
          ),
          h('td', {}, iterationCell(it.a)),
          h('td', {}, iterationCell(it.b)),
        );
      }),
      h(
        'tr',
        { class: c.answerDiffers ? 'differs answer-row' : 'same answer-row' },
        h('th', { scope: 'row' }, 'Answer', h('span', { class: 'difference' }, c.answerDiffers ? '≠' : '=')),
        h('td', {}, c.a.answer ?? '(none yet)'),
        h('td', {}, c.b.answer ?? '(none yet)'),
      ),
    ),
  );
}

/** "A: agent-1 · completed · success · 3 iterations · $0.02" with a link to the run. */
function runHead(side, run) {
  const ending = run.terminationReason ? `${run.status} · ${run.terminationReason}` : run.status;
  const fork = run.forkedFrom
    ? `forked from ${run.forkedFrom.workflowId} after step ${run.forkedFrom.keptThroughStep}`
    : undefined;
  const facts = [ending, `${run.iterations} iteration${run.iterations === 1 ? '' : 's'}`, formatUsd(run.costUsd), fork];
  return h(
    'div',
    { class: 'run-side' },
    `${side}: `,
    h('a', { href: runHref(run.runId) }, run.runId),
    h('div', { class: 'facts' }, facts.filter(Boolean).join(' · ')),
  );
}

/** One run's iteration: its thoughts, its calls with arguments and results, the models and cost. */
function iterationCell(facts) {
  if (!facts) return h('p', { class: 'note' }, 'No such iteration.');
  const cost = formatUsd(facts.costUsd);
  return [
    ...facts.thoughts.map((t) => h('p', { class: 'thought' }, t)),
    ...facts.calls.map((call) =>
      h(
        'div',
        { class: call.failed ? 'call failed' : 'call' },
        h('code', {}, `${call.tool} ${call.arguments}`),
        call.result === undefined
          ? null
          : h('div', { class: 'result' }, `→ ${call.failed ? 'failed: ' : ''}${call.result}`),
      ),
    ),
    facts.calls.length === 0 ? h('p', { class: 'note' }, 'No tool calls.') : null,
    h(
      'p',
      { class: 'facts' },
      [facts.models.length ? [...new Set(facts.models)].join(', ') : '', cost].filter(Boolean).join(' · '),
    ),
  ];
}
