// The chain as a trace: one card per iteration (thought, action, observation) with its model
// calls folded to one line each and a waterfall of its calls beside it. Steps arrive in any order
// (a page of earlier ones, live ones): each goes to its iteration's card, in step order.
import { h, replaceChildren } from './dom.js';
import { formatDuration, formatTokens, formatUsd } from './format.js';
import {
  MAX_ITERATION_BARS,
  iterationBars,
  iterationFacts,
  iterationOf,
  modelCallFacts,
  modelCallOf,
} from './iteration-trace.js';
import { s } from './svg.js';

const KIND_NAMES = { model: 'Model call', tool: 'Tool call', approval: 'Waiting for approval', sub_agent: 'Sub-agent' };

/**
 * Draws steps into `container` as iteration cards. `render(step)` makes a step's card;
 * `approvals()` gives the run's approval records (their waits are drawn in the waterfall);
 * `now()` the time a call still open is drawn to while the run goes on (undefined once it ended:
 * a call a stopped run never finished ends at its iteration's last step).
 */
export function createTraceView(container, { approvals = () => [], now = () => undefined } = {}) {
  /** iteration → { el, stepsEl, head, chart, steps: Map(stepNumber → step), folds: Map(correlationId → details) } */
  const cards = new Map();
  const toolTypes = new Map();

  const cardFor = (iteration) => {
    let card = cards.get(iteration);
    if (card) return card;
    const stepsEl = h('div', { class: 'iteration-steps' });
    const head = h('header', { class: 'iteration-head' });
    const chart = h('figure', { class: 'iteration-waterfall' });
    const el = h(
      'section',
      { class: 'iteration', dataset: { iteration: String(iteration) }, 'aria-label': iterationName(iteration) },
      head,
      h('div', { class: 'iteration-body' }, stepsEl, chart),
    );
    card = { el, stepsEl, head, chart, steps: new Map(), folds: new Map() };
    cards.set(iteration, card);
    placeInOrder(container, el, iteration, 'iteration');
    return card;
  };

  const foldFor = (card, id, stepNumber) => {
    let fold = card.folds.get(id);
    if (!fold) {
      fold = h(
        'details',
        { class: 'model-call', dataset: { correlationId: id, step: String(stepNumber) } },
        h('summary', { class: 'model-call-summary' }),
      );
      card.folds.set(id, fold);
      placeInOrder(card.stepsEl, fold, stepNumber, 'step');
      // A reply drawn loose before its call arrived (it did not look like a model's) joins the fold.
      for (const step of card.steps.values()) {
        if (step.type !== 'tool_result' || String(step.toolResult?.correlationId) !== id) continue;
        const loose = card.stepsEl.querySelector(`:scope > article[data-step="${step.stepNumber}"]`);
        if (loose) placeInOrder(fold, loose, step.stepNumber, 'step');
      }
    } else if (stepNumber < Number(fold.dataset.step)) {
      fold.dataset.step = String(stepNumber);
      placeInOrder(card.stepsEl, fold, stepNumber, 'step');
    }
    return fold;
  };

  const redraw = (card) => {
    const steps = [...card.steps.values()].sort((a, b) => a.stepNumber - b.stepNumber);
    for (const [id, fold] of card.folds) {
      const call = steps.find((st) => st.type === 'tool_call' && String(st.toolCall?.correlationId) === id);
      const reply = steps.find((st) => st.type === 'tool_result' && String(st.toolResult?.correlationId) === id);
      const facts = modelCallFacts(call, reply);
      fold.classList.toggle('model-call-failed', facts.failed);
      if (facts.answeredBy) fold.dataset.model = facts.answeredBy;
      fold.querySelector(':scope > summary').textContent = modelCallLine(facts);
    }
    const iteration = Number(card.el.dataset.iteration);
    const facts = iterationFacts(steps);
    card.el.classList.toggle('iteration-failed', facts.failed);
    replaceChildren(
      card.head,
      h('h3', {}, iterationName(iteration)),
      h('span', { class: 'iteration-facts' }, iterationLine(facts)),
    );
    replaceChildren(card.chart, waterfallSvg(iterationBars(steps, approvals(), now()), iteration));
  };

  return {
    /** Adds steps (new ones, in step order), each drawn by `render`. */
    add(steps, render) {
      const touched = new Set();
      for (const step of steps)
        if (step.type === 'tool_call') toolTypes.set(String(step.toolCall?.correlationId), step.toolCall?.toolType);
      for (const step of steps) {
        const card = cardFor(iterationOf(step));
        card.steps.set(step.stepNumber, step);
        const el = render(step);
        const id = modelCallOf(step, toolTypes);
        placeInOrder(id === undefined ? card.stepsEl : foldFor(card, id, step.stepNumber), el, step.stepNumber, 'step');
        touched.add(card);
      }
      for (const card of touched) redraw(card);
    },
    /** Redraws every card's head and waterfall (an approval was decided, time went on). */
    refresh() {
      for (const card of cards.values()) redraw(card);
    },
    /** Opens the model-call fold holding `el`, if it is in one (a link named a step inside it). */
    reveal(el) {
      const fold = el?.closest('details.model-call');
      if (fold) fold.open = true;
    },
  };
}

/**
 * Puts `el` among `parent`'s children in the order of their `data-<key>` numbers (ties keep
 * arrival order), moving it if it is already there.
 */
function placeInOrder(parent, el, n, key) {
  const next = [...parent.children].find((child) => child !== el && Number(child.dataset[key]) > n);
  if (el.parentElement === parent && el.nextElementSibling === (next ?? null)) return;
  el.dataset[key] = String(n);
  parent.insertBefore(el, next ?? null);
}

const iterationName = (iteration) => (iteration === 0 ? 'Before the first iteration' : `Iteration ${iteration}`);

/** "Model call · offline-model (asked for claude-sonnet-4-6) · 450 in · 57 out · $0.00 · 1 ms". */
function modelCallLine(facts) {
  const who = facts.answeredBy ?? facts.asked ?? 'model';
  const asked =
    facts.answeredBy && facts.asked && facts.answeredBy !== facts.asked ? ` (asked for ${facts.asked})` : '';
  return [
    `Model call · ${who}${asked}`,
    formatTokens(facts.usage),
    formatUsd(facts.costUsd),
    formatDuration(facts.latencyMs),
    facts.failed ? 'failed' : facts.open ? 'waiting for the reply…' : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** "offline-model · 450 in · 57 out · $0.00 · 122 ms · get_weather". */
function iterationLine(facts) {
  return [
    facts.models.join(', '),
    formatTokens(facts.usage),
    formatUsd(facts.costUsd),
    formatDuration(facts.durationMs),
    facts.tools.length ? toolCounts(facts.tools) : undefined,
    facts.failed ? 'a call failed' : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** "weather_agent ×3, finish": each tool once, with how many calls when more than one. */
function toolCounts(tools) {
  const counts = new Map();
  for (const name of tools) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
}

const ROW = 14;
const WIDTH = 220;
const LABEL = 70;

/** The iteration's calls as rows of bars across its span; each bar names its kind, what and how long. */
function waterfallSvg({ spanMs, bars, omitted }, iteration) {
  if (bars.length === 0) return null;
  const scale = (ms) => (spanMs > 0 ? (ms / spanMs) * (WIDTH - LABEL - 4) : 0);
  const height = bars.length * ROW + 4;
  return s(
    'svg',
    {
      class: 'waterfall iteration-chart',
      viewBox: `0 0 ${WIDTH} ${height}`,
      role: 'img',
      'aria-label': `Iteration ${iteration}: ${bars.length} call${bars.length === 1 ? '' : 's'} over ${formatDuration(spanMs)}${omitted ? `, ${omitted} more not drawn (at most ${MAX_ITERATION_BARS})` : ''}`,
    },
    bars.map((bar, row) => {
      const took = formatDuration(bar.endMs - bar.startMs);
      const text = `${KIND_NAMES[bar.kind]}: ${bar.label ?? ''} · ${bar.open ? 'still open' : took} (step ${bar.stepNumber})`;
      return s(
        'g',
        {
          class: `bar kind-${bar.kind}${bar.open ? ' open' : ''}${bar.failed ? ' failed' : ''}`,
          dataset: { kind: bar.kind, step: String(bar.stepNumber) },
        },
        s('text', { class: 'bar-name', x: 0, y: row * ROW + 11 }, String(bar.label ?? '').slice(0, 11)),
        s('rect', {
          x: LABEL + scale(bar.startMs),
          y: row * ROW + 3,
          width: Math.max(2, scale(bar.endMs - bar.startMs)),
          height: ROW - 4,
          rx: 2,
        }),
        s('title', {}, text),
      );
    }),
  );
}
