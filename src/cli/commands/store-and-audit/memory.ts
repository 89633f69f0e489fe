import { z } from 'zod';
import type { ForgetMemoryResult, MemoryEntry } from '../../../domain/planning/agent-memory';
import { MAX_FORGET_IDS, MAX_MEMORY_KEY_CHARS, memoryOwnerText } from '../../../domain/planning/agent-memory';
import type { CommandLine, CommandSpec } from '../../spec/command-line';
import { flag, text, texts } from '../../spec/flags';
import { connect } from '../../setup/runtime';
import { writeForStdout, writeSafe } from '../../render/terminal-safe';
import { UsageError } from '../../spec/usage-error';

/*
 * `memory list|delete --agent NAME [--tenant NAME]`: what runs of an agent learnt
 * (`planning.memory`), with the run and time each came from, and forgetting it. Without
 * --tenant, the memory of runs without a tenant (those the CLI starts), which is not the memory of
 * a tenant called `default`. The CLI talks to Temporal directly: it is an operator's tool.
 */

const MemoryOptions = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('list'),
    agent: z.string({ error: '--agent NAME is required: the agent whose memory to list' }),
    tenant: z.string().optional(),
    json: z.boolean(),
  }),
  z.strictObject({
    action: z.literal('delete'),
    agent: z.string({ error: '--agent NAME is required: the agent whose memory to delete from' }),
    tenant: z.string().optional(),
    ids: z.array(z.string().min(1).max(64)).max(MAX_FORGET_IDS).optional(),
    all: z.boolean(),
  }),
]);
type MemoryOptions = z.output<typeof MemoryOptions>;

function memoryOptions(line: CommandLine): MemoryOptions {
  const action = line.args[0];
  if (action !== 'list' && action !== 'delete')
    throw new UsageError(`memory takes list or delete, not "${action}": thoughtline memory list --agent NAME`);
  const agent = line.text('agent');
  if (agent !== undefined && (agent.length === 0 || agent.length > MAX_MEMORY_KEY_CHARS))
    throw new UsageError(`--agent takes a name of 1–${MAX_MEMORY_KEY_CHARS} characters.`);
  const tenant = line.text('tenant');
  if (tenant !== undefined && (tenant.length === 0 || tenant.length > MAX_MEMORY_KEY_CHARS))
    throw new UsageError(`--tenant takes a name of 1–${MAX_MEMORY_KEY_CHARS} characters.`);
  const owner = { agent, ...(tenant !== undefined ? { tenant } : {}) };
  const parsed = MemoryOptions.safeParse(
    action === 'list'
      ? { action, ...owner, json: line.flag('json') }
      : { action, ...owner, all: line.flag('all'), ...(line.texts('id') ? { ids: line.texts('id') } : {}) },
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(
      issue.message.startsWith('--') ? issue.message : `--${String(issue.path[0])}: ${issue.message}`,
    );
  }
  const options = parsed.data;
  if (options.action === 'list' && (line.flag('all') || line.texts('id')))
    throw new UsageError('--id and --all go with memory delete.');
  if (options.action === 'delete' && line.flag('json')) throw new UsageError('--json goes with memory list.');
  if (options.action === 'delete' && options.all === (options.ids !== undefined))
    throw new UsageError('memory delete takes --id ID (repeatable) or --all, one of them.');
  return options;
}

/** One entry, two lines: its id, when, which run learnt it; then the text. */
function entryLines(entry: MemoryEntry): string {
  const task = entry.taskId !== undefined ? `, task ${entry.taskId}` : '';
  return `${entry.id}  ${entry.at}  from run ${entry.fromRun ?? 'unknown'}${task}\n  ${entry.text}\n`;
}

function forgotLine(agent: string, tenant: string | undefined, result: ForgetMemoryResult): string {
  const n = result.forgotten.length;
  return `Forgot ${n} ${n === 1 ? 'entry' : 'entries'} of agent ${agent}'s memory for ${memoryOwnerText(tenant)}; ${result.count} left.\n`;
}

export async function runMemoryCommand(options: MemoryOptions): Promise<number> {
  const { agents } = await connect();
  const owner = { agent: options.agent, ...(options.tenant !== undefined ? { tenant: options.tenant } : {}) };
  const whose = memoryOwnerText(options.tenant);
  try {
    if (options.action === 'list') {
      const entries = await agents.memory(owner);
      if (options.json) writeForStdout(`${JSON.stringify(entries, null, 2)}\n`);
      else if (entries.length === 0)
        writeSafe(process.stdout, `Agent ${options.agent} has no memory yet for ${whose}.\n`);
      else writeSafe(process.stdout, entries.map(entryLines).join(''));
      return 0;
    }
    const result = await agents.forgetMemory(
      options.all ? { ...owner, all: true } : { ...owner, ids: options.ids ?? [] },
    );
    writeSafe(process.stdout, forgotLine(options.agent, options.tenant, result));
    return 0;
  } finally {
    await agents.client.connection.close();
  }
}

export const MEMORY_COMMAND: CommandSpec = {
  name: 'memory',
  group: 'Store and audit',
  summary: "list or forget what an agent's runs learnt",
  description:
    "What runs of an agent learnt (planning.memory), oldest first, with each one's run and time, and forgetting it; the memory of runs without a tenant unless --tenant names one.",
  usage: [
    'memory list --agent NAME [--tenant NAME] [--json]',
    'memory delete --agent NAME [--tenant NAME] (--id ID... | --all)',
  ],
  examples: [
    'thoughtline memory list --agent billing-sync --json',
    'thoughtline memory delete --agent billing-sync --all',
  ],
  args: [{ name: '<list|delete>', needs: 'list or delete: thoughtline memory list --agent NAME' }],
  options: {
    agent: text('NAME', 'the agent (required)'),
    tenant: text('NAME', 'the tenant whose memory', { default: 'runs without a tenant' }),
    json: flag('list as JSON'),
    id: texts('ID', 'delete this entry'),
    all: flag("delete all the agent's memory"),
  },
  run: (line) => runMemoryCommand(memoryOptions(line)),
};
