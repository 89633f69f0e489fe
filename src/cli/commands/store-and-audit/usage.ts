import type { CommandLine, CommandSpec } from '../../spec/command-line';
import { writeForStdout, writeSafe } from '../../render/terminal-safe';
import { UsageError } from '../../spec/usage-error';
import { UsageRangeError, usageRange } from '../../../store/usage/usage-range';
import { openReadStore } from '../../reading/read-store';
import { renderTenantUsage } from './usage-table';

const text = { type: 'string' } as const;
/** Longest tenant name read, as the API's route allows. */
const MAX_TENANT = 200;

function rangeOf(line: CommandLine): { tenant: string; from: string; to: string } {
  const tenant = line.text('tenant');
  if (!tenant) throw new UsageError('"usage" needs --tenant T: the tenant whose runs to count.');
  if (tenant.length > MAX_TENANT) throw new UsageError(`--tenant is at most ${MAX_TENANT} characters.`);
  const since = line.text('since');
  if (!since) throw new UsageError('"usage" needs --since: a span like 7d or 12h, or an ISO time or day.');
  try {
    return { tenant, ...usageRange({ since, until: line.text('until') }, new Date()) };
  } catch (err) {
    if (err instanceof UsageRangeError) throw new UsageError(`--${err.field}: ${err.message}`);
    throw err;
  }
}

/**
 * `usage --tenant T --since 7d|ISO [--until ISO] [--json]`: one tenant's runs, calls, tokens and
 * cost, in total, by agent and by model, read from the chain store (as `search` reads it). Whoever
 * can open the store's database reads every tenant; the API's route is the guarded way.
 */
export async function usageCommand(line: CommandLine): Promise<number> {
  const { tenant, from, to } = rangeOf(line);
  const store = await openReadStore();
  if (!store)
    throw new UsageError(
      'usage reads the chain store, and there is none here: set THOUGHTLINE_STORE (sqlite:PATH or postgres://…), or run it where serve keeps .thoughtline/store.sqlite.',
    );
  try {
    const usage = await store.tenantUsage(tenant, from, to);
    if (line.flag('json')) writeForStdout(`${JSON.stringify(usage, null, 2)}\n`);
    else writeSafe(process.stdout, renderTenantUsage(usage));
    return 0;
  } finally {
    await store.close();
  }
}

export const USAGE_COMMAND: CommandSpec = {
  name: 'usage',
  args: [],
  options: { tenant: text, since: text, until: text, json: { type: 'boolean' } },
  run: usageCommand,
};
