import { loadMcpConfig } from '../../../activities/mcp/load-mcp-config';
import type { CommandSpec } from '../../spec/command-line';
import { agentName, flag, positiveInteger, strategyName, text, texts } from '../../spec/flags';
import { UsageError } from '../../spec/usage-error';
import { runExtras } from '../../run-inputs/run-extras';
import { runBudget } from '../../run-inputs/run-budget';
import { readRunInputs } from '../../run-inputs/read-run-inputs';
import { runTask } from './run-task';

export const RUN_COMMAND: CommandSpec = {
  name: 'run',
  group: 'Run and watch',
  summary: 'start an agent on a task and print its steps as they land',
  description:
    'Start an agent and print its steps as they land: on a worker already polling the task queue (it says so), else on its own worker on a private queue. Ctrl-C stops following; the run goes on. Without ANTHROPIC_API_KEY the offline model answers (docs/offline.md).',
  examples: [
    'thoughtline run "Compare the weather in Paris and Tokyo"',
    'thoughtline run "Read auth.py and find why login fails" --files-root examples/login-bug --files auth.py --json',
  ],
  // Optional: with --workflow the goal defaults to the workflow's description (checked below).
  args: [{ name: '"<task>"' }],
  extraArgsHint: 'put the task in quotes',
  options: {
    json: flag('print only the AgentResult as JSON on stdout'),
    'no-worker': flag('only a worker already polling the task queue (none: exit 1)'),
    'max-iterations': text('N', 'the most thought–action rounds', { default: '10' }),
    'budget-tokens': text('N', 'the most tokens the run may spend (input, output and cache)'),
    'budget-usd': text('X', 'the most US dollars the run may spend, e.g. 2.50'),
    'on-budget': text('end|ask', 'at a budget: end the run, or ask (it waits for raise-budget)', { default: 'end' }),
    model: text(
      'NAME',
      'the model; with a registry (THOUGHTLINE_MODELS) an entry or group name; "local": SmolLM2-135M in this process (98 MB, fetched once)',
      { env: 'THOUGHTLINE_MODEL', default: 'claude-sonnet-4-6' },
    ),
    'workflow-id': text('ID', "the run's id (Temporal's workflow id)", { default: 'agent-<uuid>' }),
    agent: text('NAME', 'start the agent a standing worker registered under NAME'),
    agents: text('FILE', 'JSON of sub-agents by tool name, offered as tools, checked against the worker first'),
    strategy: text(
      'S',
      "native (the model's tool calling) or react-text (Thought / Action text, for models without tool calling)",
      { default: "the registry entry's, else native" },
    ),
    plan: flag('plan the task as tasks with dependencies before acting'),
    template: text('NAME', 'seed the plan: debug_bug, implement_feature or refactor_code'),
    'allow-questions': flag('offer the agent a tool to ask you a question; answer it with the answer command'),
    branches: text(
      'N',
      'let the agent try 2 to N (at most 4) approaches at once as child runs and go on with the best',
    ),
    record: text('FILE', "append the run's model replies and tool executions (secrets redacted) to FILE, JSONL"),
    mcp: text('FILE', "also offer these MCP servers' tools; runs on this process's worker"),
    files: texts('a.py,b.md', 'give the run these files, read under --files-root (text, 32 KiB each, 160 KiB in all)'),
    'files-root': text('DIR', 'where --files are read and the file tools are rooted', { default: '.' }),
    context: text('JSON|@FILE', 'a JSON object of facts for the run (at most 16 KiB; secrets redacted)'),
    workflow: text(
      'FILE|NAME',
      "the plan's steps as written (YAML or JSON, or a built-in name); the task defaults to its description",
    ),
    'no-dashboard': flag('one line per step even on a terminal (the live dashboard is the default there)'),
  },
  run: async (l) => {
    const maxIterations = positiveInteger(l, 'max-iterations');
    const budget = runBudget(l);
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
      branches: l.text('branches'),
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
      extra: { ...extra, ...budget },
    });
    return result.success ? 0 : 1;
  },
};
