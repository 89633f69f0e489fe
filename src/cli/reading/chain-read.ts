import type { ChainPage, ReasoningChain, ViewerRole } from '../../domain';
import { StepFilter, summariseChain, type ChainSummary } from '../../domain/store';
import type { CommandLine, OptionSpec } from '../spec/command-line';
import { flag, text } from '../spec/flags';
import { UsageError } from '../spec/usage-error';
import { readStoredPage } from '../../client/store/read-stored-chain';
import { filterChainSteps } from '../../client/store/step-filter-match';
import { renderSteps, timesText } from '../render/render-step';
import { writeForStdout, writeSafe } from '../render/terminal-safe';
import { connect } from '../setup/runtime';
import { printChain } from './inspect';
import { openReadStore } from './read-store';
import type { LoadedPolicy } from '../../governance/load-visibility-policy';
import { lensOfPolicy } from '../../client/runs/run-lens';
import { withPolicy } from '../spec/policy-option';
import { counted } from '../../domain/text/counted';

/** The line `chain` prints for a run Temporal no longer has (the contract's words). */
export const STORE_ONLY_LINE = "(read from the chain store only: Temporal no longer has this run's history)";

/** `chain`'s options that read through the store's filters and summary. */
export const CHAIN_STORE_OPTIONS = {
  summary: flag('counts, tools, cost and the main decisions instead of the steps'),
  type: text('T,T', 'only steps of these types'),
  tool: text('NAME', 'only steps of this tool'),
  text: text('TEXT', 'only steps whose text, as the view shows it, holds TEXT'),
  from: text('ISO', 'only steps from this time'),
  to: text('ISO', 'only steps until this time'),
} as const satisfies Record<string, OptionSpec>;

/** `--summary` and the filters as given, checked by StepFilter; undefined when none is given. */
export function chainStoreRead(line: CommandLine): { summary?: true; filter?: StepFilter } | undefined {
  const typeList = line.text('type');
  const raw = {
    ...(typeList !== undefined ? { types: [...new Set(typeList.split(',').map((t) => t.trim()))] } : {}),
    ...Object.fromEntries(
      (['tool', 'text', 'from', 'to'] as const).flatMap((name) => {
        const value = line.text(name);
        return value === undefined ? [] : [[name, value]];
      }),
    ),
  };
  const parsed = StepFilter.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const flag = issue.path[0] === 'types' ? 'type' : String(issue.path[0] ?? 'filter');
    throw new UsageError(`--${flag}: ${issue.message}`);
  }
  const filter = Object.keys(raw).length > 0 ? parsed.data : undefined;
  const summary = line.flag('summary');
  if (!filter && !summary) return undefined;
  return { ...(summary ? { summary: true as const } : {}), ...(filter ? { filter } : {}) };
}

export interface ChainReadOptions {
  json: boolean;
  role: ViewerRole;
  page?: ChainPage;
  filter?: StepFilter;
  summary?: boolean;
  /** The visibility policy every read goes through (`--policy`, THOUGHTLINE_VISIBILITY_POLICY). */
  policy?: LoadedPolicy;
}

/** A summary for the terminal: counts, tools, cost, the main decisions and the long-chain warning. */
export function renderChainSummary(summary: ChainSummary): string {
  const { byType } = summary;
  const lines = [
    `${summary.agentName}: ${summary.task}`,
    `status: ${summary.status} · ${counted(summary.steps, 'step')} (${byType.thinking} thinking, ${counted(byType.tool_call, 'call')}, ${counted(byType.tool_result, 'result')}, ${counted(byType.synthesis, 'answer')})`,
    `model calls: ${summary.modelCalls} · tokens ${summary.inputTokens} in / ${summary.outputTokens} out · $${summary.costUsd.toFixed(4)} · ${(summary.durationMs / 1000).toFixed(1)} s`,
  ];
  lines.push(timeLine(summary.time));
  if (summary.longChain) lines.push(`warning: ${summary.longChain.advice}`);
  if (summary.tools.length > 0) {
    lines.push('tools:');
    for (const tool of summary.tools)
      lines.push(`  ${tool.name}: ${counted(tool.calls, 'call')}, ${tool.failures} failed, ${tool.totalMs} ms`);
  }
  if (summary.decisions.length > 0) {
    lines.push('decisions:');
    for (const d of summary.decisions) lines.push(`  step ${d.stepNumber} ${d.kind}: ${d.text.replace(/\s+/g, ' ')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** "time: planning 1.2 s (1 call) · reasoning 3.4 s over 4 iterations, 0.9 s each, slowest 1.5 s". */
export const timeLine = (time: ChainSummary['time']): string => `time: ${timesText(time)}`;

type ChainRead = { chain: ReasoningChain; storeOnly: boolean; totalSteps: number };

/** From the store when it has the run and is not behind; undefined otherwise (or when it fails). */
async function readFromStore(workflowId: string, options: ChainReadOptions): Promise<ChainRead | undefined> {
  const store = await openReadStore().catch(() => undefined);
  if (!store) return undefined;
  try {
    const page = options.summary ? undefined : options.page;
    const stored = await readStoredPage(store, workflowId, options.role, {
      ...page,
      ...(options.filter ? { filter: options.filter } : {}),
      ...(options.policy ? { lens: lensOfPolicy(options.policy) } : {}),
    }).catch(() => undefined);
    return stored && { chain: stored.chain, storeOnly: stored.run.temporalGone, totalSteps: stored.totalSteps };
  } finally {
    await store.close();
  }
}

/** The whole chain from Temporal, filtered and cut to the page. */
async function readFromTemporal(workflowId: string, options: ChainReadOptions): Promise<ChainRead> {
  const page = options.summary ? undefined : options.page;
  const agents = withPolicy((await connect()).agents, options.policy);
  try {
    const whole = filterChainSteps(await agents.chain(workflowId, options.role), options.filter);
    const after = whole.steps.filter((step) => step.stepNumber > (page?.afterStep ?? 0));
    const steps = page?.limit !== undefined ? after.slice(0, page.limit) : after;
    return { chain: { ...whole, steps }, storeOnly: false, totalSteps: whole.steps.length };
  } finally {
    await agents.client.connection.close();
  }
}

/**
 * `chain <id>` with the store's reads: `--summary`, and the filters `--type`, `--tool`, `--text`,
 * `--from`, `--to`. Says so when the chain comes from the store only.
 */
export async function printChainRead(workflowId: string, options: ChainReadOptions): Promise<void> {
  const stored = await readFromStore(workflowId, options);
  // Without the store and without its options, the chain is read and printed exactly as before.
  if (!stored && !options.summary && !options.filter)
    return printChain(workflowId, {
      json: options.json,
      role: options.role,
      ...(options.page ? { page: options.page } : {}),
      ...(options.policy ? { policy: options.policy } : {}),
    });
  const { chain, storeOnly, totalSteps } = stored ?? (await readFromTemporal(workflowId, options));
  if (options.summary) {
    const summary = { ...summariseChain(chain), runId: workflowId };
    if (options.json) writeForStdout(`${JSON.stringify(summary, null, 2)}\n`);
    else writeSafe(process.stdout, `${storeOnly ? `${STORE_ONLY_LINE}\n` : ''}${renderChainSummary(summary)}`);
    return;
  }
  if (options.json) {
    writeForStdout(`${JSON.stringify({ ...chain, ...(storeOnly ? { storeOnly } : {}) }, null, 2)}\n`);
    return;
  }
  const hidden = chain.view?.hiddenSteps ? ` · ${counted(chain.view.hiddenSteps, 'step')} hidden in this view` : '';
  const narrowed = chain.view?.narrowed ? ` · ${chain.view.narrowed} narrowed by the visibility policy` : '';
  const filtered = options.filter
    ? ` · ${counted(totalSteps, 'step')} ${totalSteps === 1 ? 'matches' : 'match'} the filter`
    : '';
  writeSafe(
    process.stdout,
    `${storeOnly ? `${STORE_ONLY_LINE}\n` : ''}${chain.agentName}: ${chain.task}\nstatus: ${chain.status} · view: ${options.role}${hidden}${narrowed}${filtered}\n\n`,
  );
  const body = renderSteps(chain.steps).join('\n');
  if (body) writeSafe(process.stdout, `${body}\n`);
}
