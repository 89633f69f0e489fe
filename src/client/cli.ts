#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { parseViewerRole } from '../shared/chain-view';
import { demo } from './commands/demo';
import { cancelRun } from './commands/cancel';
import { runCodecServer } from './commands/codec-server';
import { decideCall } from './commands/decide';
import { exportRun } from './commands/export';
import { answerRun, steerRun } from './commands/steer';
import { printChain, printStatus, printTree, watchRun } from './commands/inspect';
import { runTask } from './commands/run';
import { runExtras } from './run-extras';
import { dev, worker } from './commands/serve';
import { terminalSafe } from './render/terminal-safe';

const HELP = `thoughtline — durable, transparent ReAct agents on Temporal

Usage:
  thoughtline demo [--team]             start what is missing and run the weather demo;
                                        --team: a lead agent with weather sub-agents in parallel
  thoughtline dev [--port N]            run a Temporal dev server until Ctrl-C (default port 7233,
                                        Web UI on the port + 1000); other commands find it on 7233,
                                        or set TEMPORAL_ADDRESS=127.0.0.1:N
  thoughtline worker [--tools FILE]     run an agent worker until Ctrl-C; FILE is a JS module
                                        exporting "tools": an array of defineTool(...) results
  thoughtline run "<task>" [options]    start an agent and print its steps as they land
      --json                 print only the AgentResult as JSON on stdout
      --no-worker            use a worker already polling the task queue
      --max-iterations N     default 10
      --model NAME           default THOUGHTLINE_MODEL or claude-sonnet-4-6
      --workflow-id ID       default agent-<uuid>
      --agents FILE          JSON of sub-agents by tool name ({ "researcher": { "description",
                             "instructions", "model", "tools", "limits" } }), offered as tools
      --plan                 plan the task as tasks with dependencies before acting
      --template NAME        seed the plan: debug_bug, implement_feature or refactor_code
      --record FILE          append the run's model replies (secrets redacted) to FILE, JSONL,
                             to replay offline: createScriptedModel(loadRecordedTurns(FILE))
  thoughtline watch <workflowId>        follow a run's steps until it ends
  thoughtline chain <workflowId> [--json] [--role end_user|developer|auditor] [--expand]
                                        print a run's reasoning chain in a role's view; --expand
                                        also prints each sub-agent's chain under its result
  thoughtline status <workflowId> [--json] [--role end_user|developer|auditor]
                                        print a run's status, plan, sub-agents and the calls
                                        awaiting approval (its sub-agents' included), in a role's
                                        view (default developer: sensitive fields redacted)
  thoughtline tree <workflowId> [--json]    print the run and its sub-agents, recursively: state,
                                        iterations, tokens, cost, budgets, plan, pending approvals
  thoughtline approve <workflowId> [callId] [--note TEXT] [--yes]
  thoughtline reject <workflowId> [callId] --reason TEXT [--yes]
                                        decide a call awaiting approval (the only one if no id),
                                        naming the run that waits or any run above it; shows the
                                        call and asks y/N first (--yes: no question, for scripts)
  thoughtline steer <workflowId> "<instruction>"   add an instruction before the next thought
  thoughtline answer <workflowId> "<text>"         answer the question the agent asked
      --as ID / --roles a,b  who decides (default THOUGHTLINE_USER / THOUGHTLINE_ROLES, OS user)
  thoughtline export <workflowId> [--format json|md] [--role auditor|developer|end_user] [--out FILE]
                                        the audit report: chain, approvals, costs, outcome
  thoughtline cancel <workflowId> [--reason TEXT] [--hard]
                                        stop a run: it finishes the current step, summarises and
                                        returns "cancelled"; --hard cancels through Temporal at once
  thoughtline codec-server [--port N] [--cors-origin URL]
                                        decrypt payloads for the Web UI and the temporal CLI
                                        (needs THOUGHTLINE_ENCRYPTION_KEYS, THOUGHTLINE_CODEC_TOKEN)

Environment: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, THOUGHTLINE_TASK_QUEUE, THOUGHTLINE_MODEL,
ANTHROPIC_API_KEY (without it an offline scripted model runs), ANTHROPIC_BASE_URL, THOUGHTLINE_USER,
THOUGHTLINE_ROLES, THOUGHTLINE_ENCRYPTION_KEYS, THOUGHTLINE_CODEC_TOKEN.
`;

/** Returns the process exit code: 0 when the command (and any agent it ran) succeeded. */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      expand: { type: 'boolean', default: false },
      'no-worker': { type: 'boolean', default: false },
      'max-iterations': { type: 'string' },
      model: { type: 'string' },
      'workflow-id': { type: 'string' },
      tools: { type: 'string' },
      record: { type: 'string' },
      reason: { type: 'string' },
      hard: { type: 'boolean', default: false },
      role: { type: 'string' },
      note: { type: 'string' },
      as: { type: 'string' },
      roles: { type: 'string' },
      format: { type: 'string' },
      port: { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
      out: { type: 'string' },
      agents: { type: 'string' },
      plan: { type: 'boolean', default: false },
      template: { type: 'string' },
      team: { type: 'boolean', default: false },
      yes: { type: 'boolean', short: 'y', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [verb, arg, second] = positionals;
  const person = { ...(values.as ? { as: values.as } : {}), ...(values.roles !== undefined ? { roles: values.roles } : {}) };
  const need = (what: string): string => {
    if (!arg) throw new UsageError(`"${verb}" needs ${what}.`);
    return arg;
  };
  if (values.help || !verb) {
    process.stdout.write(HELP);
    return values.help ? 0 : 2;
  }
  switch (verb) {
    case 'demo':
      return (await demo({ team: values.team })) ? 0 : 1;
    case 'dev': {
      const port = values.port === undefined ? undefined : Number(values.port);
      if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 64536)) throw new UsageError('--port takes a port number (the Web UI uses it + 1000).');
      return dev(port);
    }
    case 'worker':
      await worker(values.tools);
      return 0;
    case 'run': {
      const maxIterations = values['max-iterations'] === undefined ? undefined : Number(values['max-iterations']);
      if (maxIterations !== undefined && !(Number.isInteger(maxIterations) && maxIterations > 0)) {
        throw new UsageError('--max-iterations takes a positive whole number.');
      }
      const result = await runTask({
        task: need('a task, e.g. thoughtline run "Compare the weather in Paris and Tokyo"'),
        json: values.json,
        embeddedWorker: !values['no-worker'],
        ...(maxIterations ? { maxIterations } : {}),
        ...(values.model ? { model: values.model } : {}),
        ...(values['workflow-id'] ? { workflowId: values['workflow-id'] } : {}),
        ...(values.record ? { recordTo: values.record } : {}),
        extra: runExtras({ agents: values.agents, plan: values.plan, template: values.template }),
      });
      return result.success ? 0 : 1;
    }
    case 'watch':
      return (await watchRun(need('a workflow id'))) ? 0 : 1;
    case 'chain':
      await printChain(need('a workflow id'), { json: values.json, role: parseViewerRole(values.role ?? 'developer'), expand: values.expand });
      return 0;
    case 'tree':
      await printTree(need('a workflow id'), values.json);
      return 0;
    case 'status':
      await printStatus(need('a workflow id'), values.json, parseViewerRole(values.role ?? 'developer'));
      return 0;
    case 'approve':
    case 'reject':
      await decideCall(need('a workflow id'), second, {
        approved: verb === 'approve',
        yes: values.yes,
        ...person,
        ...((verb === 'approve' ? values.note : values.reason) ? { reason: (verb === 'approve' ? values.note : values.reason)! } : {}),
      });
      return 0;
    case 'export': {
      const format = values.format ?? 'md';
      if (format !== 'json' && format !== 'md') throw new UsageError('--format takes json or md.');
      await exportRun(need('a workflow id'), { format, role: parseViewerRole(values.role ?? 'auditor'), ...(values.out ? { out: values.out } : {}), ...person });
      return 0;
    }
    case 'codec-server': {
      const port = values.port === undefined ? undefined : Number(values.port);
      if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) throw new UsageError('--port takes a port number.');
      await runCodecServer({ ...(port ? { port } : {}), ...(values['cors-origin'] ? { corsOrigins: values['cors-origin'] } : {}) });
      return 0;
    }
    case 'steer':
      if (!second) throw new UsageError('"steer" needs the instruction, e.g. thoughtline steer <id> "Use only 2024 data"');
      await steerRun(need('a workflow id'), second, person);
      return 0;
    case 'answer':
      if (!second) throw new UsageError('"answer" needs the answer text.');
      await answerRun(need('a workflow id'), second, person);
      return 0;
    case 'cancel':
      await cancelRun(need('a workflow id'), { hard: values.hard, ...(values.reason ? { reason: values.reason } : {}) });
      return 0;
    default:
      throw new UsageError(`unknown command "${verb}".`);
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    // A failure's message can quote a tool's or a model's text.
    console.error(terminalSafe(`thoughtline: ${err instanceof Error ? err.message : String(err)}`));
    if (usage) console.error('Run "thoughtline --help" for usage.');
    process.exit(usage ? 2 : 1);
  },
);
