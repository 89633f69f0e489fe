// The run list's filters: each narrows GET /v1/runs on the server (Temporal visibility), so a
// filtered list pages through every matching run, not only the loaded ones.
import { h } from './dom.js';

const STATUSES = ['', 'running', 'completed', 'failed', 'cancelled', 'terminated', 'timed_out'];
/** The termination reasons a run can end with, after "any" (src/domain/run/termination.ts; viewer-pure checks they agree). */
export const REASONS = [
  '',
  'success',
  'max_iterations',
  'failure',
  'stalled',
  'token_budget',
  'cost_budget',
  'timeout',
  'cancelled',
  'custom',
  'error',
];
const ORIGINS = [
  ['', 'any origin'],
  ['schedule', 'scheduled'],
  ['experiment', 'experiment'],
];

/**
 * The filter form and the query it makes. `spend`: whether the person's view shows spend (the
 * end user's does not, and the server refuses a cost filter there).
 */
export function createRunFilters(filters = {}, { spend = true } = {}) {
  const select = (name, label, options) =>
    h(
      'select',
      { name, 'aria-label': label },
      options.map(([value, text]) => h('option', { value, selected: value === (filters[name] ?? '') }, text)),
    );
  const text = (name, label, placeholder, extra = {}) =>
    h('input', { name, type: 'text', placeholder, value: filters[name] ?? '', 'aria-label': label, ...extra });
  const fields = [
    select(
      'status',
      'Status',
      STATUSES.map((s) => [s, s || 'any status']),
    ),
    select(
      'reason',
      'Ended for',
      REASONS.map((r) => [r, r || 'any reason']),
    ),
    text('agent', 'Agent', 'agent name'),
    text('model', 'Model that answered', 'model'),
    select('origin', 'Origin', ORIGINS),
    text('minIterations', 'At least this many iterations', 'min iterations', { type: 'number', min: '0' }),
    spend ? text('minCostUsd', 'Cost at least (USD)', 'min cost $', { type: 'number', min: '0', step: 'any' }) : null,
  ].filter(Boolean);
  const form = h('form', { class: 'filters' }, fields, h('button', { type: 'submit' }, 'Filter'));
  return {
    form,
    /** The query of the filters set (empty ones left out: the server's defaults). */
    query() {
      const query = {};
      for (const field of fields) {
        const value = field.value.trim();
        if (value !== '') query[field.name] = value;
      }
      return query;
    },
  };
}
