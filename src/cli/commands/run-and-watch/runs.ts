import type { z } from 'zod';
import { RunState } from '../../../server/api-schemas';
import type { CommandSpec } from '../../spec/command-line';
import { flag, positiveInteger, role, roleOption, text } from '../../spec/flags';
import { UsageError } from '../../spec/usage-error';
import { listRuns } from '../../reading/list-runs';
import { renderRuns } from '../../render/render-runs';
import { writeForStdout, writeSafe } from '../../render/terminal-safe';
import { connect } from '../../setup/runtime';

/** Most rows one `runs` prints: visibility pages are 100 rows, so at most ten pages. */
const MAX_LIMIT = 1_000;

/** An agent or tenant name as the list API takes it (SafeName): no quote can reach the visibility query. */
function safeName(flagName: string, raw: string): string {
  if (!/^[\p{L}\p{N} ._:/@-]{1,200}$/u.test(raw))
    throw new UsageError(`--${flagName} takes letters, digits, spaces and ._:/@- only (at most 200), not "${raw}".`);
  return raw;
}

function stateName(raw: string): z.infer<typeof RunState> {
  const parsed = RunState.safeParse(raw);
  if (!parsed.success) throw new UsageError(`--state takes one of ${RunState.options.join(', ')}, not "${raw}".`);
  return parsed.data;
}

export const RUNS_COMMAND: CommandSpec = {
  name: 'runs',
  group: 'Run and watch',
  summary: 'the runs, newest first: how each ended, how long it took, iterations, spend and model',
  description:
    "List agent runs, newest first, from Temporal's visibility (no worker needed): id, agent, state, how it ended (the ending's reason, as status says it) or what it waits for, how long it took, its iterations, tokens and cost as the run last recorded them, the model that answered its last call (once its ending is recorded), and when it started. Sub-agents are read through their root (tree).",
  examples: ['thoughtline runs', 'thoughtline runs --state failed --agent support --limit 5 --json'],
  args: [],
  suggestedFor: ['list', 'ls', 'ps'],
  options: {
    state: text('S', `only runs in this state: ${RunState.options.join(', ')}`),
    agent: text('NAME', 'only runs of this agent'),
    tenant: text('T', "only this tenant's runs"),
    limit: text('N', `at most N runs (up to ${MAX_LIMIT})`, { default: '20' }),
    json: flag('print the rows as a JSON array'),
    role: roleOption('developer'),
  },
  run: async (l) => {
    const filters = {
      limit: positiveInteger(l, 'limit', MAX_LIMIT) ?? 20,
      ...(l.text('state') !== undefined ? { state: stateName(l.text('state')!) } : {}),
      ...(l.text('agent') !== undefined ? { agent: safeName('agent', l.text('agent')!) } : {}),
      ...(l.text('tenant') !== undefined ? { tenant: safeName('tenant', l.text('tenant')!) } : {}),
    };
    const viewer = role(l, 'developer');
    const { agents } = await connect();
    try {
      const rows = await listRuns(agents.client, filters);
      // The end user's view leaves out tokens and cost, as `status` does.
      const shown = viewer === 'end_user' ? rows.map(({ tokens: _t, costUsd: _c, ...rest }) => rest) : rows;
      if (l.flag('json')) writeForStdout(`${JSON.stringify(shown, null, 2)}\n`);
      else writeSafe(process.stdout, renderRuns(shown, viewer !== 'end_user'));
    } finally {
      await agents.client.connection.close();
    }
    return 0;
  },
};
