import { z } from 'zod';
import { parseViewerRole } from '../../../domain/chain/chain-view';
import { MAX_SEARCH_PAGE, RunSearch, type RunSearchResult } from '../../../domain/store';
import { searchStore } from '../../../client/store/search-store';
import { hitsInLens } from '../../../client/store/hits-in-lens';
import { lensOfPolicy } from '../../../client/runs/run-lens';
import type { CommandLine, CommandSpec } from '../../spec/command-line';
import { flag, roleOption, text } from '../../spec/flags';
import { writeForStdout, writeSafe } from '../../render/terminal-safe';
import { UsageError } from '../../spec/usage-error';
import { openReadStore } from '../../reading/read-store';
import { POLICY_OPTION, readPolicyOption } from '../../spec/policy-option';
import { counted } from '../../../domain/text/counted';

const Cost = z.coerce.number().nonnegative();
const Instant = z.iso.datetime({ offset: true }).transform((t) => new Date(t).toISOString());

/** The options of `search`, read once; each problem is a usage error naming its flag. */
const SearchOptions = z
  .object({
    agent: z.string().optional(),
    tenant: z.string().optional(),
    caller: z.string().optional(),
    state: z.string().optional(),
    reason: z.string().optional(),
    tool: z.string().optional(),
    text: z.string().optional(),
    'min-cost': Cost.optional(),
    'max-cost': Cost.optional(),
    since: Instant.optional(),
    until: Instant.optional(),
    limit: z.coerce.number().int().min(1).max(MAX_SEARCH_PAGE).optional(),
    role: z.string().optional(),
    policy: z.string().optional(),
  })
  .strict();

function searchOf(line: CommandLine): {
  search: RunSearch;
  tenant: string | null;
  role: ReturnType<typeof parseViewerRole>;
} {
  const raw: Record<string, string | undefined> = {};
  for (const name of Object.keys(SearchOptions.shape)) raw[name] = line.text(name);
  const options = SearchOptions.safeParse(raw);
  if (!options.success) {
    const issue = options.error.issues[0]!;
    throw new UsageError(`--${String(issue.path[0] ?? '')}: ${issue.message}`);
  }
  const o = options.data;
  const search = RunSearch.safeParse({
    agent: o.agent,
    tenant: o.tenant,
    caller: o.caller,
    state: o.state,
    reason: o.reason,
    tool: o.tool,
    text: o.text,
    minCostUsd: o['min-cost'],
    maxCostUsd: o['max-cost'],
    startedAfter: o.since,
    startedBefore: o.until,
    ...(o.limit !== undefined ? { limit: o.limit } : {}),
  });
  if (!search.success) {
    const issue = search.error.issues[0]!;
    throw new UsageError(`${String(issue.path[0] ?? 'search')}: ${issue.message}`);
  }
  let role;
  try {
    role = parseViewerRole(o.role ?? 'developer');
  } catch (err) {
    throw new UsageError(`--role: ${(err as Error).message}`);
  }
  return { search: search.data, tenant: o.tenant ?? null, role };
}

/** One line a run, then its matching steps' excerpts indented. */
export function renderSearch(result: RunSearchResult): string {
  if (result.hits.length === 0) return 'No runs found.\n';
  const lines: string[] = [];
  for (const { run, matches } of result.hits) {
    lines.push(
      `${run.runId}  ${run.agentName}  ${run.state}${run.terminationReason && run.terminationReason !== run.state ? ` (${run.terminationReason})` : ''}  ${run.startedAt}  ${counted(run.stepCount, 'step')}  $${run.costUsd.toFixed(4)}${run.temporalGone ? '  (store only)' : ''}`,
    );
    for (const match of matches) lines.push(`  step ${match.stepNumber}: ${match.excerpt.replace(/\s+/g, ' ')}`);
  }
  if (result.next) lines.push(`(more: narrow the search, or raise --limit up to ${MAX_SEARCH_PAGE})`);
  return `${lines.join('\n')}\n`;
}

/**
 * `search [--agent --tenant --caller --state --reason --tool --text --min-cost --max-cost --since --until --policy --json]`:
 * runs in the chain store. `--state` is the ending's (`failed` finds runs that ended with failure
 * or error), `--reason` the termination reason, `--text` the task or any step's text. Runs of
 * `--tenant` only (without it, runs without a tenant), in the `--role` view (default developer)
 * through the visibility policy's lens (`--policy`, else THOUGHTLINE_VISIBILITY_POLICY), as
 * `/v1/search` reads them: a text only another view or a wider lens shows finds nothing.
 */
export async function searchCommand(line: CommandLine): Promise<number> {
  const { search, tenant, role } = searchOf(line);
  const policy = await readPolicyOption(line);
  const store = await openReadStore();
  if (!store)
    throw new UsageError(
      'search reads the chain store, and there is none here: fill one from Temporal with `thoughtline store rebuild` (where THOUGHTLINE_STORE says, default .thoughtline/store.sqlite), or run search where serve keeps its store, or set THOUGHTLINE_STORE (sqlite:PATH or postgres://…).',
    );
  try {
    const found = await searchStore(store, search, { tenant, role });
    // As /v1/search: found in the role's view, then each run re-checked through its lens.
    const lensOf = lensOfPolicy(policy);
    const result = await hitsInLens(store, role, search, found, async (run) => lensOf(run, role));
    if (line.flag('json')) writeForStdout(`${JSON.stringify(result, null, 2)}\n`);
    else writeSafe(process.stdout, renderSearch(result));
    return 0;
  } finally {
    await store.close();
  }
}

export const SEARCH_COMMAND: CommandSpec = {
  name: 'search',
  group: 'Store and audit',
  summary: 'runs in the chain store matching every filter',
  description:
    "Runs in the chain store matching every filter, as /v1/search finds them: runs of --tenant only (none: runs without a tenant), in --role's view through --policy's lens.",
  examples: [
    'thoughtline search --tool files_write --text /etc',
    'thoughtline search --agent support --state failed --since 2026-11-01T00:00:00Z',
  ],
  args: [],
  options: {
    agent: text('A', 'runs of this agent'),
    tenant: text('T', 'runs of this tenant', { default: 'runs without a tenant' }),
    caller: text('ID', 'runs this person started'),
    state: text('S', 'runs in this state (running, completed, failed, …)'),
    reason: text('R', 'runs that ended for this reason (success, max_iterations, …)'),
    tool: text('NAME', 'runs that called this tool'),
    text: text('TEXT', 'runs whose steps, as the view shows them, hold TEXT'),
    'min-cost': text('USD', 'runs that cost at least this'),
    'max-cost': text('USD', 'runs that cost at most this'),
    since: text('ISO', 'runs started from this time'),
    until: text('ISO', 'runs started before this time'),
    limit: text('N', 'the most runs listed'),
    role: roleOption('developer'),
    ...POLICY_OPTION,
    json: flag('print the hits as JSON'),
  },
  run: searchCommand,
};
