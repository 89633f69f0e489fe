import type { RunRow } from '../reading/list-runs';
import { count, usd } from './terminal-style';

/** The row's ending as `status` names it (`completed · success`), or what a running run waits for. */
const endingText = (row: RunRow): string =>
  row.ending ? (row.ending.terminationReason ?? row.ending.label) : row.waiting ? `waiting: ${row.waiting}` : '';

/** "2026-11-02 14:05:09": the start, in UTC, to the second. */
const startText = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

/**
 * `runs` for people: one line a run, columns aligned, newest first; tokens and cost left out for
 * the end user's view (the operator's business, as in `status`). An empty list says how to start one.
 */
export function renderRuns(rows: readonly RunRow[], showSpend: boolean): string {
  if (rows.length === 0) return 'No runs match.\n';
  const head = ['RUN', 'AGENT', 'STATE', 'ENDING', ...(showSpend ? ['TOKENS', 'COST'] : []), 'STARTED (UTC)'];
  const body = rows.map((r) => [
    r.runId,
    r.agentName,
    r.state,
    endingText(r) || '-',
    ...(showSpend
      ? [r.tokens !== undefined ? count(r.tokens) : '-', r.costUsd !== undefined ? usd(r.costUsd) : '-']
      : []),
    startText(r.startedAt),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  return `${[head, ...body].map((cells) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n')}\n`;
}
