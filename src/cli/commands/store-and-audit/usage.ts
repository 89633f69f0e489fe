import type { CommandLine, CommandSpec } from '../../spec/command-line';
import { flag, text } from '../../spec/flags';
import { writeForStdout, writeSafe } from '../../render/terminal-safe';
import { UsageError } from '../../spec/usage-error';
import { UsageRangeError, usageRange } from '../../../store/usage/usage-range';
import { openReadStore } from '../../reading/read-store';
import { renderTenantUsage } from './usage-table';

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
  group: 'Store and audit',
  summary: "one tenant's runs, calls, tokens and cost over a range",
  description:
    "One tenant's runs, model and tool calls, tokens and cost (total, by agent, by model) of runs started in the range (at most 366 days), read from the chain store.",
  examples: [
    'thoughtline usage --tenant acme --since 7d',
    'thoughtline usage --tenant acme --since 2026-11-01 --until 2026-11-15 --json',
  ],
  args: [],
  options: {
    tenant: text('T', 'the tenant (required)'),
    since: text('7d|12h|ISO', 'the start: a span back from now, or a time or day (required)'),
    until: text('ISO', 'the end', { default: 'now' }),
    json: flag('print the figures as JSON'),
  },
  run: usageCommand,
};
