import { z } from 'zod';
import { DEFAULT_EXPERIMENT_RUNS, MAX_EXPERIMENT_RUNS } from '../../../client/runs/experiment-runs';
import { ExperimentName } from '../../../domain/agents/agent-experiment';
import type { ExperimentReport, ExperimentVariantSummary } from '../../../domain/evaluation/experiment-report';
import type { Estimate } from '../../../domain/evaluation/stats';
import { UsageRangeError, usageRange } from '../../../store/usage/usage-range';
import { writeForStdout, writeSafe } from '../../render/terminal-safe';
import { connect } from '../../setup/runtime';
import type { CommandLine, CommandSpec, OptionSpec } from '../../spec/command-line';
import { flag, text } from '../../spec/flags';
import { UsageError } from '../../spec/usage-error';

/** `eval report`'s options. */
export const EVAL_REPORT_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  experiment: text('NAME', 'the live experiment to report per variant'),
  since: text('7d|12h|ISO', 'runs started from then', { default: 'every run' }),
  limit: text('N', `the newest N runs (up to ${MAX_EXPERIMENT_RUNS})`, {
    default: String(DEFAULT_EXPERIMENT_RUNS),
  }),
  json: flag('print the report as JSON'),
};
export const EVAL_REPORT_USAGE = 'eval report --experiment NAME [--since 7d|ISO] [--limit N] [--json]';

const ReportOptions = z.object({
  experiment: z
    .string({ error: 'eval report needs --experiment NAME: the experiment an agent definition names' })
    .pipe(ExperimentName),
  since: z.string().optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_EXPERIMENT_RUNS, `--limit takes a whole number from 1 to ${MAX_EXPERIMENT_RUNS}`)
    .optional(),
});

/** Reads `eval report`'s command line; an option of `eval <dataset>` here, or of report there, is a usage error. */
function reportOptions(line: CommandLine): { experiment: string; since?: Date; limit?: number; json: boolean } {
  const parsed = ReportOptions.safeParse({
    experiment: line.text('experiment'),
    since: line.text('since'),
    limit: line.text('limit'),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(
      issue.message.startsWith('--') || issue.message.startsWith('eval')
        ? issue.message
        : `--${String(issue.path[0])}: ${issue.message}`,
    );
  }
  let since: Date | undefined;
  if (parsed.data.since !== undefined) {
    try {
      since = new Date(usageRange({ since: parsed.data.since }, new Date()).from);
    } catch (err) {
      if (err instanceof UsageRangeError) throw new UsageError(`--since: ${err.message}`);
      throw err;
    }
  }
  return {
    experiment: parsed.data.experiment,
    ...(since ? { since } : {}),
    ...(parsed.data.limit !== undefined ? { limit: parsed.data.limit } : {}),
    json: line.flag('json'),
  };
}

/**
 * `eval report --experiment NAME [--since …] [--limit N] [--json]`: a live experiment's runs per
 * variant (success rate, late scores, cost, tokens, latency, with 95% intervals), read from
 * visibility and each run's scores; nothing is started. Exit 0, also when no run is listed yet.
 */
export async function evalReport(line: CommandLine): Promise<number> {
  const options = reportOptions(line);
  const { agents } = await connect();
  try {
    const report = await agents.experimentReport(options.experiment, {
      ...(options.since ? { since: options.since } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
    });
    if (options.json) writeForStdout(`${JSON.stringify(report, null, 2)}\n`);
    else writeSafe(process.stdout, renderExperimentReport(report));
    return 0;
  } finally {
    await agents.client.connection.close();
  }
}

const percent = (v: number): string => `${(v * 100).toFixed(1)}%`;
const number = (v: number): string => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3));
const usd = (v: number): string => `$${v.toFixed(4)}`;

/** "50.0% [23.7–76.3%] (n 10)": a value, its 95% interval when there is one, and what it rests on. */
function estimate(e: Estimate | undefined, show: (v: number) => string): string {
  if (!e) return '—';
  const interval = e.interval ? ` [${show(e.interval.low)}–${show(e.interval.high)}]` : '';
  return `${show(e.value)}${interval} (n ${e.n})`;
}

function variantLines(v: ExperimentVariantSummary): string[] {
  const lines = [
    `${v.variant}: ${v.runs} run${v.runs === 1 ? '' : 's'}${v.ended < v.runs ? ` (${v.runs - v.ended} still open)` : ''}`,
    `  success      ${estimate(v.successRate, percent)}`,
    `  cost         ${estimate(v.costUsd, usd)} mean per run`,
    `  tokens       ${estimate(v.tokens, number)} mean per run`,
    `  latency      ${v.latencyMs ? `p50 ${(v.latencyMs.p50 / 1000).toFixed(1)} s, p95 ${(v.latencyMs.p95 / 1000).toFixed(1)} s` : '—'}`,
  ];
  for (const s of v.scores) {
    const pass = s.passRate ? `; pass ${estimate(s.passRate, percent)}` : '';
    lines.push(`  score ${s.name}: mean ${estimate(s.mean, number)}${pass}`);
  }
  return lines;
}

/** The report as text: a block per variant; intervals are 95% (Wilson for rates, Student t for means). */
export function renderExperimentReport(report: ExperimentReport): string {
  const head = `Experiment ${report.experiment}: ${report.runs} run${report.runs === 1 ? '' : 's'} read${report.truncated ? ` (the newest ${report.limit}; more exist: --limit, --since)` : ''}.`;
  if (report.variants.length === 0)
    return `${head}\nNo run records this experiment yet (a run records its variant with its first update; listing lags a moment).\n`;
  const blocks = report.variants.map((v) => variantLines(v).join('\n'));
  return `${head}\n\n${blocks.join('\n\n')}\n\n95% intervals: Wilson for rates, Student t for means; a score counts once per run (several of one name averaged).\n`;
}

export const EVAL_REPORT_COMMAND: CommandSpec = {
  name: 'eval report',
  group: 'Evaluation',
  summary: "a live experiment's runs per variant, with late scores",
  description:
    'A live experiment’s runs per variant: success rate, each late score’s mean (and pass rate for true/false scores), cost and tokens per run with 95% intervals, latency p50/p95; read from visibility and each run’s scores, nothing is started (docs/evaluation.md#live-experiments).',
  examples: ['thoughtline eval report --experiment support-tone --since 7d'],
  usage: [EVAL_REPORT_USAGE],
  args: [],
  options: EVAL_REPORT_OPTIONS,
  run: evalReport,
};
