import { z } from 'zod';
import type { CacheKind } from '../../../activities/cache/cache-key';
import { forgetRunCache, listRunCache, type CacheEntrySummary } from '../../../activities/cache/run-cache-review';
import { runCacheFile } from '../../../activities/cache/sqlite-run-cache';
import { loadConfig } from '../../../config';
import type { CommandLine, CommandSpec } from '../../spec/command-line';
import { flag, text, texts } from '../../spec/flags';
import { writeForStdout, writeSafe } from '../../render/terminal-safe';
import { UsageError } from '../../spec/usage-error';

/*
 * `cache list|delete [--tenant NAME] [--kind tool|model|plan]`: what the run cache of this
 * machine's workers holds for a tenant (runs without a tenant by default), each entry with the run
 * that stored it and when (a plan with its tasks, which later runs read quoted), and forgetting
 * one or all. Reads the worker's SQLite file (THOUGHTLINE_CACHE_FILE, else .thoughtline/cache.sqlite).
 */

const Kind = z.enum(['tool', 'model', 'plan'], { error: '--kind takes tool, model or plan' });
const Tenant = z
  .string()
  .min(1, '--tenant takes a name of 1–256 characters')
  .max(256, '--tenant takes a name of 1–256 characters');
const Key = z.string().regex(/^[0-9a-f]{64}$/, '--key takes an entry key as listed (64 hex digits)');

const CacheOptions = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('list'), tenant: Tenant.optional(), kind: Kind.optional(), json: z.boolean() }),
  z.strictObject({
    action: z.literal('delete'),
    tenant: Tenant.optional(),
    kind: Kind.optional(),
    keys: z.array(Key).max(500).optional(),
    all: z.boolean(),
  }),
]);
type CacheOptions = z.output<typeof CacheOptions>;

function cacheOptions(line: CommandLine): CacheOptions {
  const action = line.args[0];
  if (action !== 'list' && action !== 'delete')
    throw new UsageError(`cache takes list or delete, not "${action}": thoughtline cache list [--tenant NAME]`);
  const owner = { tenant: line.text('tenant'), kind: line.text('kind') };
  const parsed = CacheOptions.safeParse(
    action === 'list'
      ? { action, ...owner, json: line.flag('json') }
      : { action, ...owner, all: line.flag('all'), ...(line.texts('key') ? { keys: line.texts('key') } : {}) },
  );
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]!.message);
  const options = parsed.data;
  if (options.action === 'list' && (line.flag('all') || line.texts('key')))
    throw new UsageError('--key and --all go with cache delete.');
  if (options.action === 'delete' && line.flag('json')) throw new UsageError('--json goes with cache list.');
  if (options.action === 'delete' && options.all === (options.keys !== undefined))
    throw new UsageError('cache delete takes --key KEY (repeatable) or --all, one of them.');
  return options;
}

const whose = (tenant: string | undefined) => (tenant === undefined ? 'runs without a tenant' : `tenant ${tenant}`);

/** One entry: its key, kind and name; the run and times; a plan's tasks under it. */
function entryLines(e: CacheEntrySummary): string {
  const head = `${e.key}  ${e.kind} ${e.name}\n  from run ${e.fromRun}, stored ${e.storedAt}, expires ${e.expiresAt}\n`;
  const tasks = (e.plan as { tasks?: Array<{ id?: unknown; description?: unknown }> } | undefined)?.tasks ?? [];
  return head + tasks.map((t) => `    - ${String(t.id)}: ${String(t.description)}\n`).join('');
}

export async function runCacheCommand(options: CacheOptions): Promise<number> {
  const file = runCacheFile(loadConfig().cacheFile);
  const owner = { tenant: options.tenant, kind: options.kind as CacheKind | undefined };
  if (options.action === 'list') {
    const entries = listRunCache(file, owner);
    if (options.json) writeForStdout(`${JSON.stringify(entries, null, 2)}\n`);
    else if (entries.length === 0)
      writeSafe(process.stdout, `The run cache holds nothing for ${whose(options.tenant)}.\n`);
    else writeSafe(process.stdout, entries.map(entryLines).join(''));
    return 0;
  }
  const gone = forgetRunCache(file, owner, options.all ? { all: true } : { keys: options.keys ?? [] });
  writeSafe(process.stdout, `Forgot ${gone} cached ${gone === 1 ? 'entry' : 'entries'} of ${whose(options.tenant)}.\n`);
  return 0;
}

export const CACHE_COMMAND: CommandSpec = {
  name: 'cache',
  group: 'Store and audit',
  summary: "list or forget this machine's run cache",
  description:
    "What this machine's run cache holds (tool results, model replies, plans) with the run and time each came from, and forgetting it; runs without a tenant unless --tenant names one.",
  usage: [
    'cache list [--tenant NAME] [--kind tool|model|plan] [--json]',
    'cache delete [--tenant NAME] [--kind K] (--key KEY... | --all)',
  ],
  examples: ['thoughtline cache list --kind plan', 'thoughtline cache delete --tenant acme --all'],
  args: [{ name: '<list|delete>', needs: 'list or delete: thoughtline cache list [--tenant NAME]' }],
  options: {
    tenant: text('NAME', 'the tenant whose entries', { default: 'runs without a tenant' }),
    kind: text('K', 'tool, model or plan'),
    json: flag('list as JSON'),
    key: texts('KEY', 'delete this entry (64 hex digits, as listed)'),
    all: flag('delete every entry that matches'),
  },
  run: (line) => runCacheCommand(cacheOptions(line)),
};
