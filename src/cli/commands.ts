import { parseViewerRole } from '../shared/chain-view';
import { AgentId, BUILT_IN_MODEL_PROVIDERS, ModelProviderName, type ViewerRole } from '../shared';
import { MAX_CHAIN_PAGE_STEPS } from '../shared/chain-page';
import { cancelRun } from './commands/run-and-watch/cancel';
import { runCodecServer } from './commands/serve-and-protocols/codec-server';
import { printSigningKey } from './commands/serve-and-protocols/signing-key';
import { printTools } from './commands/operations/tools';
import { decideCall } from './commands/people-in-the-loop/decide-call';
import { demo } from './commands/run-and-watch/demo';
import { EVAL_OPTIONS, evaluate, readEvalOptions } from './commands/evaluation/evaluate';
import { exportFormatFor, exportRun, MAX_EXPORT_LIMIT } from './commands/store-and-audit/export-run';
import { verifyExport } from './commands/store-and-audit/verify';
import { forkCommand, printChainAsOf } from './reading/fork-run';
import { printChain, printStatus, printTree, watchRun } from './reading/inspect';
import { runTask } from './commands/run-and-watch/run-task';
import { dev } from './commands/operations/dev';
import { WORKER_COMMAND } from './commands/operations/worker';
import { MCP_SERVER_COMMAND } from './commands/serve-and-protocols/mcp-server';
import { printVersions, setCurrent } from './commands/operations/versions';
import { serveHttp } from './commands/serve-and-protocols/serve-http';
import { createToken } from './commands/serve-and-protocols/token';
import { answerRun, steerRun } from './commands/people-in-the-loop/send-to-run';
import { SCORE_COMMAND } from './commands/evaluation/score';
import { SEARCH_COMMAND } from './commands/store-and-audit/search';
import { USAGE_COMMAND } from './commands/store-and-audit/usage';
import { CHAIN_STORE_OPTIONS, chainStoreRead, printChainRead } from './reading/chain-read';
import { POLICY_OPTION, readPolicyOption } from './spec/policy-option';
import { CACHE_COMMAND } from './commands/store-and-audit/cache';
import { MEMORY_COMMAND } from './commands/store-and-audit/memory';
import { STORE_COMMAND } from './commands/store-and-audit/store';
import { loadMcpConfig } from '../activities/mcp/load-mcp-config';
import { runExtras } from './run-inputs/run-extras';
import { readRunInputs } from './run-inputs/read-run-inputs';
import type { ArgSpec, CommandLine, CommandSpec, OptionSpec } from './spec/command-line';
import { UsageError } from './spec/usage-error';
import { OIDC_OPTIONS, readOidcFlags } from './spec/oidc-options';

const flag: OptionSpec = { type: 'boolean' };
const text: OptionSpec = { type: 'string' };
const PERSON = { as: text, roles: text };
const RUN_ID: ArgSpec = { name: '<run-id>', needs: 'a run id (the agent-… id run printed)' };

function role(line: CommandLine, fallback: ViewerRole): ViewerRole {
  try {
    return parseViewerRole(line.text('role') ?? fallback);
  } catch (err) {
    throw new UsageError(`--role: ${(err as Error).message}`);
  }
}

const person = (line: CommandLine): { as?: string; roles?: string } => ({
  ...(line.text('as') !== undefined ? { as: line.text('as')! } : {}),
  ...(line.text('roles') !== undefined ? { roles: line.text('roles')! } : {}),
});

function positiveInteger(line: CommandLine, name: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = line.text(name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!(Number.isInteger(n) && n > 0 && n <= max))
    throw new UsageError(
      `--${name} takes a positive whole number${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''}, not "${raw}".`,
    );
  return n;
}

function nonNegativeInteger(line: CommandLine, name: string): number {
  const raw = line.text(name) ?? '';
  const n = Number(raw);
  if (!(raw.trim() !== '' && Number.isInteger(n) && n >= 0))
    throw new UsageError(`--${name} takes a whole number (0 or more), not "${raw}".`);
  return n;
}

/** The provider of `provider/model`, checked against the providers there are. */
/** `--agent NAME`: an agent id as definitions spell it, else a usage error. */
function agentName(text: string): string {
  const parsed = AgentId.safeParse(text);
  if (!parsed.success) throw new UsageError(`--agent "${text}": ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** `--strategy`: how the run talks to its model. */
function strategyName(text: string): 'native' | 'react-text' {
  if (text === 'native' || text === 'react-text') return text;
  throw new UsageError(
    `--strategy takes native (the model's own tool calling) or react-text (Thought / Action text, for models without tool calling), not "${text}".`,
  );
}

function providerOf(text: string): ModelProviderName {
  const parsed = ModelProviderName.safeParse(text.slice(0, text.indexOf('/')));
  if (!parsed.success)
    throw new UsageError(
      `--model: "${text.slice(0, text.indexOf('/'))}" is not a provider name (built in: ${BUILT_IN_MODEL_PROVIDERS.join(', ')}); write provider/model or just the model.`,
    );
  return parsed.data;
}

/** Every command, its arguments and the only options it takes; `--help` is accepted everywhere. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'demo',
    args: [],
    options: { team: flag, model: text },
    run: async (l) =>
      (await demo({ team: l.flag('team'), ...(l.text('model') ? { model: l.text('model')! } : {}) })) ? 0 : 1,
  },
  {
    name: 'dev',
    args: [],
    options: { port: text },
    // The Web UI listens on the port + 1000, so the port stops 1,000 short of the last one.
    run: async (l) => dev(positiveInteger(l, 'port', 64_535)),
  },
  WORKER_COMMAND,
  { name: 'versions', args: [], options: { json: flag }, run: async (l) => printVersions({ json: l.flag('json') }) },
  {
    name: 'set-current-version',
    args: [{ name: '<buildId>' }],
    options: { unversioned: flag },
    run: async (l) => {
      const buildId = l.args[0];
      if (Boolean(buildId) === l.flag('unversioned'))
        throw new UsageError(
          '"set-current-version" needs a build id from thoughtline versions, or --unversioned (not both).',
        );
      return setCurrent(buildId ?? null);
    },
  },
  {
    name: 'serve',
    args: [],
    options: {
      port: text,
      host: text,
      'with-worker': flag,
      tools: text,
      agents: text,
      mcp: text,
      unversioned: flag,
      'keep-current': flag,
      tokens: text,
      ...OIDC_OPTIONS,
      'signing-keys': text,
      'require-signatures': flag,
      store: text,
      policy: text,
    },
    run: async (l) => {
      const port = positiveInteger(l, 'port', 65_535);
      const given = (name: string): string | undefined => l.text(name);
      const oidc = readOidcFlags(l);
      return serveHttp({
        ...(port ? { port } : {}),
        ...(given('host') ? { host: given('host')! } : {}),
        withWorker: l.flag('with-worker'),
        ...(given('tools') ? { tools: given('tools')! } : {}),
        ...(given('agents') ? { agents: given('agents')! } : {}),
        ...(given('mcp') ? { mcp: given('mcp')! } : {}),
        versioning: { unversioned: l.flag('unversioned'), keepCurrent: l.flag('keep-current') },
        ...(given('tokens') ? { tokens: given('tokens')! } : {}),
        oidc,
        ...(given('signing-keys') ? { signingKeys: given('signing-keys')! } : {}),
        requireSignatures: l.flag('require-signatures'),
        ...(given('store') !== undefined ? { store: given('store')! } : {}),
        ...(given('policy') !== undefined ? { policy: given('policy')! } : {}),
      });
    },
  },
  MCP_SERVER_COMMAND,
  {
    name: 'token',
    args: [],
    options: { id: text, roles: text, tenant: text, file: text },
    run: async (l) => {
      const id = l.text('id')?.trim();
      if (!id)
        throw new UsageError(
          '"token" needs --id NAME: who presenting the token is, e.g. thoughtline token --id alice --roles developer,approver',
        );
      createToken({
        id,
        ...(l.text('roles') !== undefined ? { roles: l.text('roles')! } : {}),
        ...(l.text('tenant') ? { tenant: l.text('tenant')! } : {}),
        ...(l.text('file') ? { file: l.text('file')! } : {}),
      });
      return 0;
    },
  },
  {
    name: 'signing-key',
    args: [],
    options: { id: text },
    run: async (l) => printSigningKey(l.text('id') !== undefined ? { id: l.text('id')! } : {}),
  },
  {
    name: 'tools',
    args: [],
    options: { tools: text, mcp: text, json: flag },
    run: async (l) =>
      printTools({
        ...(l.text('tools') ? { tools: l.text('tools')! } : {}),
        ...(l.text('mcp') ? { mcp: l.text('mcp')! } : {}),
        json: l.flag('json'),
      }),
  },
  {
    name: 'run',
    // Optional: with --workflow the goal defaults to the workflow's description (checked in run).
    args: [{ name: '"<task>"' }],
    extraArgsHint: 'put the task in quotes',
    options: {
      json: flag,
      'no-worker': flag,
      'max-iterations': text,
      model: text,
      'workflow-id': text,
      agent: text,
      agents: text,
      strategy: text,
      plan: flag,
      template: text,
      'allow-questions': flag,
      record: text,
      mcp: text,
      files: { type: 'string', multiple: true },
      'files-root': text,
      context: text,
      workflow: text,
      'no-dashboard': flag,
    },
    run: async (l) => {
      const maxIterations = positiveInteger(l, 'max-iterations');
      const embeddedWorker = !l.flag('no-worker');
      const inputs = await readRunInputs({
        files: l.texts('files'),
        filesRoot: l.text('files-root'),
        context: l.text('context'),
        workflow: l.text('workflow'),
      });
      const task = l.args[0] ?? inputs.workflow?.description;
      if (task === undefined)
        throw new UsageError(
          inputs.workflow
            ? `"run" needs a task: the workflow ${inputs.workflow.name} has no description to use instead.`
            : '"run" needs a task, e.g. thoughtline run "Compare the weather in Paris and Tokyo".',
        );
      const extra = runExtras({
        agents: l.text('agents'),
        plan: l.flag('plan'),
        template: l.text('template'),
        allowQuestions: l.flag('allow-questions'),
        workflow: inputs.workflow,
        context: inputs.context,
      });
      const result = await runTask({
        task,
        json: l.flag('json'),
        embeddedWorker,
        dashboard: !l.flag('no-dashboard'),
        ...(maxIterations ? { maxIterations } : {}),
        ...(l.text('model') ? { model: l.text('model')! } : {}),
        ...(l.text('strategy') !== undefined ? { strategy: strategyName(l.text('strategy')!) } : {}),
        ...(l.text('workflow-id') ? { workflowId: l.text('workflow-id')! } : {}),
        ...(l.text('agent') !== undefined ? { agent: agentName(l.text('agent')!) } : {}),
        ...(l.text('record') ? { recordTo: l.text('record')! } : {}),
        ...(l.text('mcp') ? { mcp: await loadMcpConfig(l.text('mcp')!) } : {}),
        ...(inputs.filesRoot ? { filesRoot: inputs.filesRoot } : {}),
        extra,
      });
      return result.success ? 0 : 1;
    },
  },
  {
    name: 'eval',
    args: [{ name: '<dataset>', needs: 'a dataset, e.g. thoughtline eval evals/loop.jsonl' }],
    options: EVAL_OPTIONS,
    run: async (l) => evaluate(readEvalOptions(l)),
  },
  {
    name: 'watch',
    args: [RUN_ID],
    options: { dashboard: flag, ...POLICY_OPTION },
    run: async (l) => {
      const policy = await readPolicyOption(l);
      return (await watchRun(l.args[0]!, { dashboard: l.flag('dashboard'), ...(policy ? { policy } : {}) })) ? 0 : 1;
    },
  },
  {
    name: 'chain',
    args: [RUN_ID],
    options: {
      json: flag,
      role: text,
      expand: flag,
      'after-step': text,
      limit: text,
      'as-of': text,
      ...CHAIN_STORE_OPTIONS,
      ...POLICY_OPTION,
    },
    run: async (l) => {
      const storeRead = chainStoreRead(l);
      const policy = await readPolicyOption(l);
      const withPolicy = policy ? { policy } : {};
      if (l.text('as-of') !== undefined) {
        if (l.flag('expand') || l.text('after-step') !== undefined || l.text('limit') !== undefined || storeRead)
          throw new UsageError(
            '--as-of prints the whole chain as it stood; it does not take --expand, --after-step, --limit, --summary or filters.',
          );
        await printChainAsOf(l.args[0]!, positiveInteger(l, 'as-of')!, {
          json: l.flag('json'),
          role: role(l, 'developer'),
          ...withPolicy,
        });
        return 0;
      }
      const afterStep = positiveInteger(l, 'after-step');
      const limit = positiveInteger(l, 'limit', MAX_CHAIN_PAGE_STEPS);
      const page =
        afterStep !== undefined || limit !== undefined
          ? { ...(afterStep !== undefined ? { afterStep } : {}), ...(limit !== undefined ? { limit } : {}) }
          : undefined;
      if (page && l.flag('expand'))
        throw new UsageError('--expand prints whole chains; it does not take --after-step or --limit.');
      if (l.flag('expand')) {
        if (storeRead) throw new UsageError('--expand prints whole chains; it does not take --summary or filters.');
        await printChain(l.args[0]!, { json: l.flag('json'), role: role(l, 'developer'), expand: true, ...withPolicy });
        return 0;
      }
      await printChainRead(l.args[0]!, {
        json: l.flag('json'),
        role: role(l, 'developer'),
        ...(page ? { page } : {}),
        ...storeRead,
        ...withPolicy,
      });
      return 0;
    },
  },
  {
    name: 'status',
    args: [RUN_ID],
    options: { json: flag, role: text },
    run: async (l) => {
      await printStatus(l.args[0]!, l.flag('json'), role(l, 'developer'));
      return 0;
    },
  },
  {
    name: 'tree',
    args: [RUN_ID],
    options: { json: flag },
    run: async (l) => {
      await printTree(l.args[0]!, l.flag('json'));
      return 0;
    },
  },
  {
    name: 'approve',
    args: [RUN_ID, { name: '[callId]' }],
    options: {
      note: text,
      'mark-done': { type: 'boolean' },
      result: text,
      yes: { type: 'boolean', short: 'y' },
      ...PERSON,
    },
    run: async (l) => {
      const note = l.text('note');
      const result = l.text('result');
      await decideCall(l.args[0]!, l.args[1], {
        approved: true,
        yes: l.flag('yes'),
        ...person(l),
        ...(note ? { reason: note } : {}),
        ...(l.flag('mark-done') ? { markDone: true } : {}),
        ...(result !== undefined ? { result } : {}),
      });
      return 0;
    },
  },
  {
    name: 'reject',
    args: [RUN_ID, { name: '[callId]' }],
    options: { reason: text, yes: { type: 'boolean', short: 'y' }, ...PERSON },
    run: async (l) => {
      const reason = l.text('reason')?.trim();
      if (!reason)
        throw new UsageError('"reject" needs --reason TEXT: the agent reads it to decide what to do instead.');
      await decideCall(l.args[0]!, l.args[1], { approved: false, yes: l.flag('yes'), ...person(l), reason });
      return 0;
    },
  },
  {
    name: 'steer',
    args: [
      RUN_ID,
      { name: '"<instruction>"', needs: 'the instruction, e.g. thoughtline steer <run-id> "Use only 2024 data"' },
    ],
    extraArgsHint: 'put the instruction in quotes',
    options: PERSON,
    run: async (l) => {
      await steerRun(l.args[0]!, l.args[1]!, person(l));
      return 0;
    },
  },
  {
    name: 'answer',
    args: [RUN_ID, { name: '"<text>"', needs: 'the answer text, e.g. thoughtline answer <run-id> "2024"' }],
    extraArgsHint: 'put the answer in quotes',
    options: PERSON,
    run: async (l) => {
      await answerRun(l.args[0]!, l.args[1]!, person(l));
      return 0;
    },
  },
  {
    name: 'export',
    args: [{ name: '<run-id>' }],
    options: {
      format: text,
      role: text,
      out: text,
      query: text,
      limit: text,
      keyring: text,
      ...PERSON,
      ...POLICY_OPTION,
    },
    run: async (l) => {
      const policy = await readPolicyOption(l);
      const out = l.text('out');
      const format = exportFormatFor(l.text('format'), out);
      const keyring = l.text('keyring');
      const query = l.text('query');
      if ((query === undefined) === (l.args[0] === undefined))
        throw new UsageError('export takes a run id, or --query "<visibility query>" for many runs (not both).');
      if (query === undefined && l.text('limit') !== undefined) throw new UsageError('--limit goes with --query.');
      const limit = positiveInteger(l, 'limit', MAX_EXPORT_LIMIT);
      const target = query !== undefined ? { query, ...(limit ? { limit } : {}) } : { workflowId: l.args[0]! };
      await exportRun(target, {
        format,
        role: role(l, 'auditor'),
        ...(out ? { out } : {}),
        ...(keyring ? { keyring } : {}),
        ...(policy ? { policy } : {}),
        ...person(l),
      });
      return 0;
    },
  },
  {
    name: 'fork',
    args: [RUN_ID],
    options: { 'at-step': text, model: text, steer: text, tools: text, 'dry-run': flag, json: flag, ...PERSON },
    run: async (l) => {
      if (l.text('at-step') === undefined)
        throw new UsageError('fork needs --at-step N: the step to fork at (see thoughtline chain <id>).');
      const atStep = nonNegativeInteger(l, 'at-step');
      const model = l.text('model');
      const tools = l.text('tools');
      const steer = l.text('steer');
      return forkCommand(l.args[0]!, {
        atStep,
        ...(model
          ? {
              model: model.includes('/')
                ? { provider: providerOf(model), model: model.slice(model.indexOf('/') + 1) }
                : { model },
            }
          : {}),
        ...(tools !== undefined
          ? {
              tools: tools
                .split(',')
                .map((t) => t.trim())
                .filter(Boolean),
            }
          : {}),
        ...(steer ? { steer } : {}),
        dryRun: l.flag('dry-run'),
        json: l.flag('json'),
        ...person(l),
      });
    },
  },
  {
    name: 'verify',
    args: [{ name: '<file>', needs: 'the JSON report to check (from export --format json)' }],
    options: { 'public-key': { type: 'string', multiple: true }, 'final-hash': { type: 'string', multiple: true } },
    run: async (l) =>
      verifyExport(l.args[0]!, { publicKeys: l.texts('public-key') ?? [], finalHashes: l.texts('final-hash') ?? [] }),
  },
  {
    name: 'cancel',
    args: [RUN_ID],
    options: { reason: text, hard: flag },
    run: async (l) => {
      const reason = l.text('reason');
      await cancelRun(l.args[0]!, { hard: l.flag('hard'), ...(reason ? { reason } : {}) });
      return 0;
    },
  },
  SCORE_COMMAND,
  MEMORY_COMMAND,
  CACHE_COMMAND,
  STORE_COMMAND,
  SEARCH_COMMAND,
  USAGE_COMMAND,
  {
    name: 'codec-server',
    args: [],
    options: { port: text, 'cors-origin': { type: 'string', multiple: true } },
    run: async (l) => {
      const port = positiveInteger(l, 'port', 65_535);
      const corsOrigins = l.texts('cors-origin');
      await runCodecServer({ ...(port ? { port } : {}), ...(corsOrigins ? { corsOrigins } : {}) });
      return 0;
    },
  },
];
