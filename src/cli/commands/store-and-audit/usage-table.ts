import type { TenantUsage, UsageTotals } from '../../../domain/store';

type Row = Partial<UsageTotals> & Pick<UsageTotals, 'inputTokens' | 'outputTokens' | 'costUsd'>;

const COLUMNS: readonly { title: string; value: (row: Row) => string }[] = [
  { title: 'runs', value: (row) => count(row.runs) },
  { title: 'model calls', value: (row) => count(row.modelCalls) },
  { title: 'tool calls', value: (row) => count(row.toolCalls) },
  { title: 'input tokens', value: (row) => count(row.inputTokens) },
  { title: 'output tokens', value: (row) => count(row.outputTokens) },
  { title: 'cost (USD)', value: (row) => row.costUsd.toFixed(6) },
];
/** Longest name a table shows in full; longer ones are cut with "…" so the columns stay aligned. */
const MAX_NAME = 40;

/** A number with thousands separators; "-" where the figure does not apply (tool calls by model). */
function count(n: number | undefined): string {
  return n === undefined ? '-' : n.toLocaleString('en-US');
}

const cut = (name: string): string => (name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name);

/** One table: a name column, then the figures right-aligned under their titles. */
function table(title: string, rows: readonly { name: string; row: Row }[]): string[] {
  const cells = rows.map(({ name, row }) => [cut(name), ...COLUMNS.map((c) => c.value(row))]);
  const header = [title, ...COLUMNS.map((c) => c.title)];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), ...cells.map(line)];
}

/** `usage`'s table: the range, the totals, then by agent and by model (each sorted by name). */
export function renderTenantUsage(usage: TenantUsage): string {
  const lines = [`Tenant ${usage.tenant}: runs started from ${usage.from} until ${usage.to}`, ''];
  lines.push(...table('total', [{ name: 'all agents', row: usage.totals }]));
  if (usage.totals.runs === 0) return `${[...lines, '', 'No runs in this range.'].join('\n')}\n`;
  lines.push(
    '',
    ...table(
      'agent',
      usage.byAgent.map((row) => ({ name: row.agentName, row })),
    ),
  );
  if (usage.byModel.length > 0)
    lines.push(
      '',
      ...table(
        'model',
        usage.byModel.map(({ model, ...row }) => ({ name: model, row })),
      ),
    );
  return `${lines.join('\n')}\n`;
}
