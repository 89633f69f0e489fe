// How a run ended, as the list, the search and the run page show it (runEnding on the server).
import { h, replaceChildren } from './dom.js';
import { endingBadge } from './format.js';

/** The run's state badge: its ending's label in its tone, the summary on hover, the state in `data-state`. */
export function badgeOf(run) {
  const badge = endingBadge(run);
  return h('span', { class: badge.className, title: badge.title, dataset: { state: badge.state } }, badge.text);
}

/**
 * How the run ended, from GET /v1/runs/{id}'s `ending` (already in this person's view): its
 * state and reason in the ending's tone, the one-line summary, then the answer under its title
 * or the error in full. `answer`, when given, is the answer with its claims marked (answer-view.js).
 */
export function renderEnding(panel, ending, { answer } = {}) {
  panel.hidden = !ending;
  if (!ending) return;
  const reason = ending.terminationReason ? ` · ${ending.terminationReason}` : '';
  replaceChildren(
    panel,
    h('h3', { class: `ending-title tone-${ending.tone}` }, `Ended: ${ending.state}${reason}`),
    ending.summary !== ending.label ? h('p', { class: 'ending-summary' }, ending.summary) : null,
    answer
      ? h('div', { class: 'ending-answer' }, answer)
      : ending.answer
        ? h('div', { class: 'ending-answer' }, h('h4', {}, ending.answerTitle ?? 'Answer'), h('p', {}, ending.answer))
        : null,
    ending.error ? h('pre', { class: 'ending-error error' }, ending.error) : null,
  );
}
