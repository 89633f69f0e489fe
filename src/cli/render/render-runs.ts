import type { RunRow } from '../reading/list-runs';
import { count, usd } from './terminal-style';

/** The row's ending as `status` names it (`completed · success`), or what a running run waits for. */
const endingText = (row: RunRow): string =>
  row.ending ? (row.ending.terminationReason ?? row.ending.label) : row.waiting ? `waiting: ${row.waiting}` : '';

/** "2026-11-02 14:05:09": the start, in UTC, to the second. */
const startText = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

/** "850 ms", "12.4 s", "3 min 05 s", "2 h 07 min": a run's length at a glance. */
export function durationText(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1_000);
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

const orDash = <T>(value: T | undefined, show: (v: T) => string): string => (value === undefined ? '-' : show(value));

/**
 * `runs` for people: one line a run, columns aligned, newest first: how it ended, how long it took,
 * its iterations and the model that answered; tokens and cost left out for the end user's view
 * (the operator's business, as in `status`). An empty list says so.
 */
export function renderRuns(rows: readonly RunRow[], showSpend: boolean): string {
  if (rows.length === 0) return 'No runs match.\n';
  const head = [
    'RUN',
    'AGENT',
    'STATE',
    'ENDING',
    'TOOK',
    'ITER',
    ...(showSpend ? ['TOKENS', 'COST'] : []),
    'MODEL',
    'STARTED (UTC)',
  ];
  const body = rows.map((r) => [
    r.runId,
    r.agentName,
    r.state,
    endingText(r) || '-',
    orDash(r.durationMs, durationText),
    orDash(r.iterations, String),
    ...(showSpend ? [orDash(r.tokens, count), orDash(r.costUsd, usd)] : []),
    r.model ?? '-',
    startText(r.startedAt),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  return `${[head, ...body].map((cells) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n')}\n`;
}
