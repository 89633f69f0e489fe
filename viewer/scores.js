// A run's outcome scores (attached after it ran: POST /v1/runs/{id}/scores), as a panel on its
// page. Built with h(): every value is a text node, never parsed as HTML.
import { h, replaceChildren } from './dom.js';
import { formatDateTime } from './format.js';

/** "1 · by alice · 25 Nov 14:02 · via zendesk": the facts of one score after its name. Pure. */
export function scoreFacts(score) {
  const value = typeof score?.value === 'number' && Number.isFinite(score.value) ? String(score.value) : '?';
  return [
    value,
    typeof score?.by === 'string' && score.by ? `by ${score.by}` : undefined,
    formatDateTime(score?.at) || undefined,
    typeof score?.source === 'string' && score.source ? `via ${score.source}` : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Fills `panel` with the scores (hidden when there are none); a failure to read them is one muted line. */
export function renderScores(panel, { scores, failure }) {
  const list = Array.isArray(scores) ? scores : [];
  panel.hidden = list.length === 0 && !failure;
  replaceChildren(
    panel,
    h('h3', {}, list.length ? `Scores (${list.length})` : 'Scores'),
    failure ? h('p', { class: 'note' }, `The scores could not be read: ${failure}`) : null,
    list.length
      ? h(
          'ul',
          { class: 'score-list' },
          list.map((score) =>
            h(
              'li',
              { class: 'score', dataset: { name: String(score?.name ?? '') } },
              h('span', { class: 'score-name' }, String(score?.name ?? '')),
              ' ',
              h('span', { class: 'score-facts' }, scoreFacts(score)),
              typeof score?.comment === 'string' && score.comment
                ? h('p', { class: 'score-comment' }, score.comment)
                : null,
            ),
          ),
        )
      : null,
  );
}
