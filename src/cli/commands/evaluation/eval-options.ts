import { AgentId } from '../../../domain';
import type { CommandLine, OptionSpec } from '../../spec/command-line';
import { flag, text, texts } from '../../spec/flags';
import { UsageError } from '../../spec/usage-error';

/** What `thoughtline eval` takes; `--model`, `--agent` and `--scorer` repeat. */
export const EVAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  model: texts('M', 'a variant per model (names as for run)', { default: 'the configured model' }),
  agent: texts('NAME', 'a variant per registered agent (× each --model)'),
  repeat: text('N', 'runs per case and variant (up to 100): intervals, pass@k', { default: '1' }),
  concurrency: text('N', 'agent runs at once, across the evaluation', { default: '4' }),
  'budget-usd': text('X', 'one budget for every run; once spent, the rest skip'),
  'budget-tokens': text('N', 'one token budget for every run'),
  judge: text('MODEL', "grade each run's reasoning coherence with this pinned model"),
  scorer: texts('NAME', 'also run this worker-registered scorer on every case'),
  tools: text('FILE', "run this process's own worker with these tools (as worker --tools)"),
  out: text('DIR', 'where the result and reports go', { default: 'eval-results/<id>/' }),
  baseline: text(
    'FILE',
    'compare with an earlier result.json: exit 1 on a significant drop or a case that now fails every run',
  ),
  'baseline-any-dataset': flag('compare with --baseline even when the dataset changed'),
  resume: text('ID', 'follow an evaluation started before (after Ctrl-C) to its reports'),
  'no-worker': flag('only a worker already polling the task queue (none: exit 1)'),
  json: flag('also print the summary (and the gate) as JSON on stdout'),
};

/** The command line of `eval`, checked: every mistake here is a UsageError, before anything connects. */
export interface EvalOptions {
  dataset: string;
  models: string[];
  agents: string[];
  repeat?: number;
  concurrency?: number;
  budgetUsd?: number;
  budgetTokens?: number;
  judge?: string;
  scorers: string[];
  tools?: string;
  out?: string;
  baseline?: string;
  baselineAnyDataset: boolean;
  /** Follow an evaluation started before (after Ctrl-C) instead of starting one. */
  resume?: string;
  noWorker: boolean;
  json: boolean;
}

export function readEvalOptions(l: CommandLine): EvalOptions {
  const models = l.texts('model') ?? [];
  const agents = (l.texts('agent') ?? []).map((a) => {
    const parsed = AgentId.safeParse(a);
    if (!parsed.success) throw new UsageError(`--agent "${a}": ${parsed.error.issues[0]?.message}`);
    return parsed.data;
  });
  for (const [name, values] of [
    ['model', models],
    ['agent', agents],
  ] as const) {
    const twice = values.find((v, i) => values.indexOf(v) !== i);
    if (twice !== undefined) throw new UsageError(`--${name} ${twice} is given twice; each makes a variant once.`);
  }
  const scorers = l.texts('scorer') ?? [];
  const badScorer = scorers.find((s) => s.length === 0 || s.length > 64);
  if (badScorer !== undefined)
    throw new UsageError(`--scorer takes a scorer's name (1 to 64 characters), not "${badScorer}".`);
  if (scorers.length > 20) throw new UsageError('--scorer: at most 20 scorers.');
  if (l.flag('baseline-any-dataset') && l.text('baseline') === undefined)
    throw new UsageError('--baseline-any-dataset goes with --baseline FILE.');
  if (l.flag('no-worker') && l.text('tools') !== undefined)
    throw new UsageError("--tools serves tools on this process's own worker; --no-worker runs none. Give one of them.");
  const options: EvalOptions = {
    dataset: l.args[0]!,
    models,
    agents,
    scorers,
    baselineAnyDataset: l.flag('baseline-any-dataset'),
    noWorker: l.flag('no-worker'),
    json: l.flag('json'),
  };
  const repeat = wholeNumber(l, 'repeat', 100);
  const concurrency = wholeNumber(l, 'concurrency', 256);
  const budgetTokens = wholeNumber(l, 'budget-tokens', Number.MAX_SAFE_INTEGER);
  const budgetUsd = l.text('budget-usd');
  if (budgetUsd !== undefined && !(Number(budgetUsd) > 0 && Number.isFinite(Number(budgetUsd))))
    throw new UsageError(`--budget-usd takes a positive amount of US dollars, e.g. 2.50, not "${budgetUsd}".`);
  for (const [key, value] of [
    ['judge', l.text('judge')],
    ['tools', l.text('tools')],
    ['out', l.text('out')],
    ['baseline', l.text('baseline')],
    ['resume', l.text('resume')],
  ] as const)
    if (value !== undefined) {
      if (value.trim() === '') throw new UsageError(`--${key} needs a value.`);
      options[key] = value;
    }
  return {
    ...options,
    ...(repeat !== undefined ? { repeat } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(budgetTokens !== undefined ? { budgetTokens } : {}),
    ...(budgetUsd !== undefined ? { budgetUsd: Number(budgetUsd) } : {}),
  };
}

function wholeNumber(l: CommandLine, name: string, max: number): number | undefined {
  const raw = l.text(name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!(raw.trim() !== '' && Number.isInteger(n) && n > 0 && n <= max))
    throw new UsageError(
      `--${name} takes a positive whole number${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''}, not "${raw}".`,
    );
  return n;
}
