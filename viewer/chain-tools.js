// The run page's reading aids for long chains: the summary (GET /v1/runs/{id}/summary) with a
// warning past the long-chain threshold, and filters on the chain (step type, tool, time, text)
// that read only the matching steps (the chain route's types/tool/from/to/text).
import { api, describeFailure } from './api.js';
import { detailsQuery } from './preferences.js';
import { h, replaceChildren } from './dom.js';
import { formatDuration, formatUsd } from './format.js';
import { sourceNotice } from './store-notices.js';

const TYPES = [
  ['thinking', 'Thoughts'],
  ['tool_call', 'Calls'],
  ['tool_result', 'Results'],
  ['synthesis', 'Answers'],
];
/** Most steps one filtered read shows (the chain route's page limit). */
export const FILTER_LIMIT = 500;

/** The chain route's filter query from the form's values; undefined when nothing is set. Pure. */
export function chainFilterQuery({ types = [], tool = '', from = '', to = '', text = '' }) {
  const query = {};
  const all = TYPES.map(([type]) => type);
  const picked = all.filter((type) => types.includes(type));
  if (picked.length > 0 && picked.length < all.length) query.types = picked.join(',');
  if (tool.trim()) query.tool = tool.trim();
  if (text.trim()) query.text = text.trim();
  for (const [key, value] of [
    ['from', from],
    ['to', to],
  ]) {
    const ms = Date.parse(value);
    if (value && Number.isFinite(ms)) query[key] = new Date(ms).toISOString();
  }
  return Object.keys(query).length ? query : undefined;
}

/**
 * The summary panel and the filter form. `showFiltered(steps, page)` receives the matching steps
 * (or undefined to go back to the whole chain).
 */
export function createChainTools({ base, view, showFiltered }) {
  const summaryPanel = h('section', { class: 'summary panel', hidden: true });
  const checks = TYPES.map(([type, label]) =>
    h('label', {}, h('input', { type: 'checkbox', name: 'types', value: type }), ` ${label}`),
  );
  const tool = h('input', { name: 'tool', type: 'text', placeholder: 'tool', 'aria-label': 'Tool', maxlength: 200 });
  const from = h('input', { name: 'from', type: 'datetime-local', step: 1, 'aria-label': 'From' });
  const to = h('input', { name: 'to', type: 'datetime-local', step: 1, 'aria-label': 'To' });
  const text = h('input', { name: 'text', type: 'search', placeholder: 'text', 'aria-label': 'Text', maxlength: 200 });
  const clear = h('button', { type: 'button', hidden: true }, 'Clear filters');
  const status = h('p', { class: 'message', role: 'status' });
  const form = h(
    'form',
    { class: 'filters chain-filters', 'aria-label': 'Filter the chain' },
    checks,
    tool,
    from,
    to,
    text,
    h('button', { type: 'submit' }, 'Filter'),
    clear,
  );
  const filterPanel = h('section', { class: 'panel' }, h('h3', {}, 'Filter the chain'), form, status);

  const apply = async () => {
    const query = chainFilterQuery({
      types: checks
        .map((label) => label.querySelector('input'))
        .filter((c) => c.checked)
        .map((c) => c.value),
      tool: tool.value,
      from: from.value,
      to: to.value,
      text: text.value,
    });
    status.classList.remove('error');
    if (!query) return reset();
    status.textContent = 'Filtering…';
    try {
      const page = await api(`${base}/chain`, {
        query: { view, ...detailsQuery(), ...query, afterStep: 0, limit: FILTER_LIMIT },
      });
      const steps = page.chain?.steps ?? [];
      status.textContent = `${page.totalSteps ?? steps.length} matching step${steps.length === 1 ? '' : 's'}${page.nextAfterStep ? ` (the first ${steps.length} shown)` : ''}`;
      clear.hidden = false;
      showFiltered(steps, page);
    } catch (err) {
      status.textContent = describeFailure(err);
      status.classList.add('error');
    }
  };
  const reset = () => {
    form.reset();
    status.textContent = '';
    clear.hidden = true;
    showFiltered(undefined);
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void apply();
  });
  clear.addEventListener('click', reset);

  const loadSummary = async () => {
    try {
      renderSummary(summaryPanel, await api(`${base}/summary`, { query: { view, ...detailsQuery() } }));
    } catch (err) {
      summaryPanel.hidden = false;
      replaceChildren(summaryPanel, h('h3', {}, 'Summary'), h('p', { class: 'note' }, describeFailure(err)));
    }
  };
  return { summaryPanel, filterPanel, loadSummary };
}

function renderSummary(panel, summary) {
  panel.hidden = false;
  const by = summary.byType;
  const facts = [
    `${summary.steps} steps (${by.thinking} thoughts, ${by.tool_call} calls, ${by.tool_result} results, ${by.synthesis} answers)`,
    `${summary.modelCalls} model calls`,
    `${summary.inputTokens + summary.outputTokens} tokens`,
    summary.costUsd ? formatUsd(summary.costUsd) : undefined,
    formatDuration(summary.durationMs),
    // Seed 003's planning time and reasoning time per iteration (absent from older servers).
    summary.time?.planningCalls ? `planning ${formatDuration(summary.time.planningMs)}` : undefined,
    summary.time?.reasoningIterations
      ? `reasoning ${formatDuration(summary.time.reasoningPerIterationMs)} per iteration`
      : undefined,
  ].filter(Boolean);
  replaceChildren(
    panel,
    h('h3', {}, 'Summary'),
    summary.longChain
      ? h(
          'p',
          { class: 'long-chain', role: 'note' },
          `Long chain: ${summary.longChain.steps} steps. ${summary.longChain.advice}`,
        )
      : null,
    sourceNotice(summary),
    h('p', { class: 'summary-facts' }, facts.join(' · ')),
    summary.tools.length
      ? h(
          'ul',
          { class: 'summary-tools' },
          summary.tools.map((t) =>
            h(
              'li',
              {},
              `${t.name}: ${t.calls} call${t.calls === 1 ? '' : 's'}${t.failures ? `, ${t.failures} failed` : ''}`,
            ),
          ),
        )
      : null,
    summary.decisions.length
      ? h(
          'details',
          {},
          h('summary', {}, `Main decisions (${summary.decisions.length})`),
          h(
            'ol',
            { class: 'summary-decisions' },
            summary.decisions.map((d) => h('li', {}, `#${d.stepNumber} ${d.kind}: ${d.text}`)),
          ),
        )
      : null,
  );
}
