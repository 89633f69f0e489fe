// Collapsible JSON: objects and arrays fold (<details>), scalars show inline. Text only.
import { h } from './dom.js';

const MAX_OPEN_DEPTH = 1;

/** A node showing `value`; levels deeper than `openDepth` start folded. */
export function jsonView(value, depth = 0, openDepth = MAX_OPEN_DEPTH) {
  if (value === null || typeof value !== 'object')
    return h('span', { class: `json-${value === null ? 'null' : typeof value}` }, scalar(value));
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  if (entries.length === 0) return h('span', { class: 'json-empty' }, Array.isArray(value) ? '[]' : '{}');
  const summary = Array.isArray(value)
    ? `[${entries.length} item${entries.length === 1 ? '' : 's'}]`
    : `{${entries
        .map(([k]) => k)
        .slice(0, 4)
        .join(', ')}${entries.length > 4 ? ', …' : ''}}`;
  return h(
    'details',
    { class: 'json', open: depth < openDepth },
    h('summary', {}, summary),
    h(
      'ul',
      {},
      entries.map(([key, v]) =>
        h('li', {}, h('span', { class: 'json-key' }, `${key}: `), jsonView(v, depth + 1, openDepth)),
      ),
    ),
  );
}

function scalar(value) {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'undefined';
  return String(value);
}
