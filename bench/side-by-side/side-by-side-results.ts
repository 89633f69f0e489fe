import type { ConcurrentFigures, RecoverFigures, StateFigures, StepFigures } from './scenarios';

/** Everything one `npm run bench:peers` measured, per engine, as written to its JSON file. */
export interface EngineResults {
  name: string;
  title: string;
  version?: string;
  steps?: StepFigures;
  state?: StateFigures;
  recover?: RecoverFigures;
  concurrent?: ConcurrentFigures;
  actions?: { perThousandIterations: number; usd: number };
  errors: string[];
  /** What limited a figure without failing it (a long run cut short, and why). */
  notes: string[];
}

export interface SideBySideResults {
  date: string;
  commit: string;
  quick: boolean;
  machine: Record<string, unknown>;
  versions: Record<string, string>;
  config: Record<string, unknown>;
  engines: EngineResults[];
  infraErrors: string[];
  wallSeconds: number;
}

/** One row of the printed table: a label and a value per engine (undefined: not measured). */
export interface Row {
  label: string;
  unit: string;
  /** Lower is better for every row but those marked false (e.g. nothing yet). */
  values: Array<number | undefined>;
  lowerIsBetter?: boolean;
  text?: Array<string | undefined>;
}

const kb = (b: number | undefined): number | undefined => (b === undefined ? undefined : b / 1024);

/** The rows every report shows, in order. */
export function rowsOf(results: SideBySideResults): Row[] {
  const e = results.engines;
  const rows: Row[] = [];
  const add = (label: string, unit: string, pick: (r: EngineResults) => number | undefined) =>
    rows.push({ label, unit, values: e.map(pick) });
  add('time to first step, p50', 'ms', (r) => r.steps?.timeToFirstStepMs?.p50);
  const indices = [...new Set(e.flatMap((r) => Object.keys(r.steps?.gaps ?? {}).map(Number)))].sort((a, b) => a - b);
  for (const i of indices)
    for (const q of ['p50', 'p75', 'p95'] as const)
      add(`step-to-step overhead at step ${i.toLocaleString('en')}, ${q}`, 'ms', (r) => r.steps?.gaps[i]?.[q]);
  add('overhead slope per 100 steps', 'ms', (r) => r.steps?.slope?.msPer100Steps);
  add('five-turn loop overhead, p50', 'ms', (r) => r.steps?.fiveTurnOverheadMs?.p50);
  const labels = [...new Set(e.flatMap((r) => r.state?.perIteration.map((p) => p.label) ?? []))];
  for (const label of labels) {
    add(`stored per iteration, ${label}`, 'KB', (r) =>
      kb(r.state?.perIteration.find((p) => p.label === label)?.bytesPerIteration),
    );
    add(`  largest conversation the model saw`, 'k tokens', (r) => {
      const t = r.state?.perIteration.find((p) => p.label === label)?.maxInputTokens;
      return t === undefined ? undefined : t / 1000;
    });
  }
  add('SIGKILL mid-tool: until the step runs again', 'ms', (r) => r.recover?.recoveryMs);
  add('SIGKILL mid-tool: time the run lost', 'ms', (r) => r.recover?.lostMs);
  add('steps completed twice after the kill', 'steps', (r) => r.recover?.stepsEndedTwice);
  const runs = Math.max(0, ...e.map((r) => r.concurrent?.runs ?? 0));
  if (runs) {
    // An engine asked for fewer runs (its cap, in its notes) is left out of the row.
    const at = (r: EngineResults) => (r.concurrent?.runs === runs ? r.concurrent : undefined);
    const rounds = Math.max(1, ...e.map((r) => r.concurrent?.rounds ?? 1));
    const of = rounds > 1 ? `, median of ${rounds} rounds` : '';
    add(`${runs.toLocaleString('en')} concurrent runs${of}: wall time`, 's', (r) => at(r) && at(r)!.wallMs / 1000);
    add(`  CPU (engine and its servers)`, 's', (r) => at(r) && at(r)!.cpuMs / 1000);
    add(`  peak memory (engine and its servers)`, 'MB', (r) => at(r) && at(r)!.peakRssBytes / 1e6);
  }
  add('Temporal Cloud actions per 1,000 iterations', 'actions', (r) => r.actions?.perThousandIterations);
  add('  at list price ($50 per million)', '$', (r) => r.actions?.usd);
  return rows;
}

const fmt = (v: number | undefined): string =>
  v === undefined ? '—' : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);

/** A markdown table: one column per engine, the best value of each row in bold. */
export function markdownTable(results: SideBySideResults): string {
  const head = `| metric | ${results.engines.map((e) => e.title).join(' | ')} |`;
  const sep = `| --- | ${results.engines.map(() => '---:').join(' | ')} |`;
  const body = rowsOf(results).map((row) => {
    const known = row.values.filter((v): v is number => v !== undefined);
    const best = row.label.startsWith('  largest') || known.length < 2 ? undefined : Math.min(...known);
    const cells = row.values.map((v) => (v !== undefined && v === best ? `**${fmt(v)}**` : fmt(v)));
    return `| ${row.label} (${row.unit}) | ${cells.join(' | ')} |`;
  });
  return [head, sep, ...body].join('\n');
}
