import type { FigureResult, Measurement } from './figure';

const format = (value: number | undefined): string => {
  if (value === undefined) return 'n/a';
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 1 || abs === 0) return value.toFixed(abs >= 10 ? 1 : 2);
  return value.toPrecision(2);
};

function verdict(m: Measurement): string {
  if (!m.target) return '';
  const goal = `${m.target.op} ${m.target.value} ${m.unit}`;
  if (m.met === undefined) return `target ${goal}: not measured`;
  return `target ${goal}: ${m.met ? 'met' : 'NOT met'}${m.target.note ? ` (${m.target.note})` : ''}`;
}

/** The figures as aligned text tables, one per figure, with each target's verdict. */
export function renderTable(figures: readonly FigureResult[]): string {
  const out: string[] = [];
  for (const f of figures) {
    out.push('', `== ${f.title} (${(f.wallMs / 1000).toFixed(1)} s)`);
    const width = Math.max(0, ...f.measurements.map((m) => m.name.length));
    for (const m of f.measurements)
      out.push(
        `  ${m.name.padEnd(width)}  ${format(m.value).padStart(8)} ${m.unit.padEnd(3)}  ${verdict(m)}`.trimEnd(),
      );
    for (const e of f.errors) out.push(`  ! ${e.split('\n')[0]}`);
  }
  return out.join('\n');
}
