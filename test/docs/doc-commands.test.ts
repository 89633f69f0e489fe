import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, PROJECT_ROOT } from '../helpers/cli-process';
import { docCommands } from './doc-commands';

/**
 * The docs' shell commands, run as written from the repository's root: every `npx thoughtline …`
 * and `npm …` line of a ```bash block in README.md and docs/*.md is either in RUN (run here, on
 * the suite's dev server through TEMPORAL_ADDRESS, with no API key: the offline model) or in
 * NOT_RUN with the reason; a new command in the docs fails the first test until it is one or the
 * other. Substituted, explicitly and nothing else: the id of the run the first command started for
 * `agent-…`, and a temporary directory for the files a command writes (`--out audit.md`,
 * `> result.json`), so the checkout is left as it was. In the slow stage (test/slow-files.json): 284 s on the shared 2-core machine, each `npx` run starting its own worker.
 */
const RUN: ReadonlyArray<readonly [page: string, command: string]> = [
  [
    'docs/cli.md',
    'npx thoughtline run "Read auth.py and find why login fails" --files-root examples/login-bug --files auth.py',
  ],
  [
    'docs/store.md',
    'npx thoughtline chain agent-\u2026 --summary                 # counts, tools, cost, the main decisions',
  ],
  [
    'docs/teams-and-plans.md',
    'npx thoughtline run "Search the files for the login check and read auth.py" --files-root examples/login-bug --branches 2',
  ],
  ['README.md', 'npx thoughtline --help        # the commands, by group'],
  ['README.md', 'npx thoughtline run --help    # one command: its options, defaults and examples'],
  [
    'docs/cli.md',
    'npx thoughtline fork agent-\u2026 --at-step 4 --dry-run   # re-run from step 4, listing what it may repeat',
  ],
  ['docs/cli.md', 'npx thoughtline run --workflow debug_bug --context \'{"file": "auth.py", "error": "..."}\''],
  ['docs/cli.md', 'npx thoughtline --help            # or: npx thoughtline help'],
  ['docs/cli.md', "npx thoughtline help status       # one command's help (also: npx thoughtline status --help)"],
  ['docs/cli.md', 'npx thoughtline --version         # the installed version (also -v)'],
  ['docs/cli.md', 'npx thoughtline watch agent-\u2026'],
  ['docs/cli.md', 'npx thoughtline chain agent-\u2026                    # the chain again, from the result'],
  ['docs/cli.md', 'npx thoughtline chain agent-\u2026 --role end_user    # what an end user sees'],
  ['docs/cli.md', 'npx thoughtline status agent-\u2026                   # the status record'],
  ['docs/cli.md', 'npx thoughtline tree agent-\u2026                     # one line: no sub-agents'],
  [
    'docs/cli.md',
    'npx thoughtline export agent-\u2026 --out audit.md    # the audit report, as markdown (.json: as JSON)',
  ],
  [
    'docs/cli.md',
    'npx thoughtline watch agent-\u2026                    # a finished run: every step, then the outcome',
  ],
  ['docs/cli.md', 'npx thoughtline run "Compare the weather in Paris and Tokyo" --json > result.json'],
  [
    'docs/context-and-workflows.md',
    'npx thoughtline run "Fix login issue with special characters" --files-root examples/login-bug --files auth.py',
  ],
  [
    'docs/context-and-workflows.md',
    'npx thoughtline run "Add password reset functionality" --workflow implement_feature',
  ],
  [
    'docs/context-and-workflows.md',
    'npx thoughtline run --workflow debug_bug --context \'{"file": "auth.py", "error": "..."}\'',
  ],
  [
    'docs/context-and-workflows.md',
    'npx thoughtline run "Read auth.py and find why login fails" --files-root examples/login-bug --files auth.py',
  ],
  [
    'docs/context-and-workflows.md',
    'npx thoughtline run "Fix login issue with special characters" --workflow examples/workflows/fix-bug.yaml --files-root examples/login-bug --files auth.py --context \'{"error": "login fails for p@ss"}\'',
  ],
  ['docs/offline.md', 'npx thoughtline run "What is the weather in Paris?" --plan'],
];

const SNIPPET =
  "run by test/docs/mcp-client-snippet.test.ts with the page's client script (a free port, a temporary token file)";
const SERVER = 'serves or works until Ctrl-C (a server, a worker, a store of its own)';
const REPO = "a developer's command of the repository (install, the suites, benchmarks, clusters, packing)";
const KEY = 'needs a hosted model (an API key) or a Temporal of its own (a profile, a cluster)';
const LOCAL =
  'needs the 98 MB local model and minutes of 2 cores; its loop is test/activities/local/repetition.test.ts';
const PERSON = 'waits for a person (an approval, a question) or decides for one: interactive';
const NO_WORKER = "--no-worker needs a standing worker with the reader's own tools (./my-tools.js)";
const MCP = 'needs mcp.json, written by the block before it into the checkout; MCP tools are test/mcp/';
const SCHEDULES =
  'needs a worker that registered the agent it names, and leaves a schedule firing on the shared server; test/cli/schedule.test.ts runs these commands on its own agent';
const PLACEHOLDER = 'names a run, key or file of the reader (<run-id>, 3Xk…) or shows output ($ …)';
const LATER =
  'offline, but not run here yet: beyond the four pages run (README, offline, context-and-workflows, cli) or needs files of its own (a dataset, agents.json, a store, a token file)';

const NOT_RUN: ReadonlyArray<readonly [page: string, command: string, reason: string]> = [
  [
    'docs/schedules-and-triggers.md',
    'npx thoughtline schedule create daily-report --agent reporter --input "Write the daily report" --cron "0 9 * * 1-5"',
    SCHEDULES,
  ],
  [
    'docs/schedules-and-triggers.md',
    'npx thoughtline schedule create sweep --agent janitor --input "Close stale tickets" --every 6h --overlap buffer_one',
    SCHEDULES,
  ],
  ['docs/schedules-and-triggers.md', 'npx thoughtline schedule list', SCHEDULES],
  ['docs/schedules-and-triggers.md', 'npx thoughtline schedule pause daily-report --note "holiday week"', SCHEDULES],
  ['docs/schedules-and-triggers.md', 'npx thoughtline schedule pause daily-report --resume', SCHEDULES],
  ['docs/schedules-and-triggers.md', 'npx thoughtline schedule trigger daily-report', SCHEDULES],
  ['docs/schedules-and-triggers.md', 'npx thoughtline schedule delete sweep', SCHEDULES],
  ['README.md', 'npm install && npm run demo     # sets everything up, then runs an agent and prints its chain', REPO],
  [
    'README.md',
    'npm test                        # the suite, against a real Temporal dev server (slow scenarios: npm run test:slow)',
    REPO,
  ],
  [
    'docs/mcp.md',
    'npx thoughtline tools --mcp mcp.json                             # its tools, as files__<tool>',
    MCP,
  ],
  ['docs/mcp.md', 'npx thoughtline run \'Read the text file "offline.md"\' --mcp mcp.json', MCP],
  ['docs/store.md', 'npx thoughtline search --tool files_write --text /etc   # which runs wrote under /etc?', LATER],
  ['docs/cli.md', 'npx thoughtline run "Compare the weather in Paris and Tokyo and save it"', PERSON],
  [
    'docs/evaluation.md',
    'npx thoughtline eval eval/loop.jsonl --tools eval/loop-tools.cjs --baseline eval/baselines/loop-offline.json',
    LATER,
  ],
  ['README.md', '(cd thoughtline && npm pack)      # builds, then writes thoughtline/thoughtline-0.1.0.tgz', REPO],
  ['README.md', 'npm init -y && npm pkg set type=module', REPO],
  ['README.md', 'npm install ../thoughtline/thoughtline-0.1.0.tgz zod@4 tsx', REPO],
  ['docs/a2a-remote-agents.md', 'AGENTS_EXAMPLE_TOKEN=... npx thoughtline worker --a2a a2a.json', SERVER],
  ['docs/a2a.md', 'npx thoughtline serve --with-worker', SERVER],
  ['docs/ag-ui.md', 'npx thoughtline serve --with-worker', SERVER],
  ['docs/react.md', 'npm install ../thoughtline/thoughtline-0.1.0.tgz react react-dom', REPO],
  [
    'docs/react.md',
    'npx thoughtline serve --with-worker',
    "serves until Ctrl-C; test/react/react-hooks-browser.test.ts runs serve (and a worker) with the page's vite commands",
  ],
  ['docs/auditing.md', 'npx thoughtline export <run-id> --out report.json', PLACEHOLDER],
  [
    'docs/auditing.md',
    'npx thoughtline export --query \'ThoughtlineAgent = "billing" AND ThoughtlineTenant = "acme" AND StartTime > "2026-11-16T00:00:00Z"\' --out week.json',
    LATER,
  ],
  ['docs/auditing.md', '$ npx thoughtline verify report.json --public-key 3Xk\u2026', PLACEHOLDER],
  ['docs/auditing.md', '$ npx thoughtline verify unsigned.json --final-hash sha256:9b0e\u2026', PLACEHOLDER],
  ['docs/auditing.md', '$ npx thoughtline verify edited.json --public-key 3Xk\u2026', PLACEHOLDER],
  ['docs/auditing.md', '$ npx thoughtline import audit.json --public-key 3Xk\u2026', PLACEHOLDER],
  ['docs/auditing.md', '$ npx thoughtline import edited.json --public-key 3Xk\u2026', PLACEHOLDER],
  [
    'docs/auditing.md',
    'THOUGHTLINE_EXPORT_KEYRING=./export-keys.json npx thoughtline export <run-id> --out report.json',
    PLACEHOLDER,
  ],
  ['docs/auditing.md', 'npx thoughtline export <run-id> --keyring ./export-keys.json --out report.json', PLACEHOLDER],
  ['docs/benchmarks.md', 'npm test', REPO],
  ['docs/benchmarks.md', 'npm run record-fixtures', REPO],
  ['docs/benchmarks.md', 'npm run bench                 # the full run, about 20 minutes', REPO],
  ['docs/benchmarks.md', 'BENCH_QUICK=1 npm run bench   # a smoke run, a few minutes', REPO],
  ['docs/benchmarks.md', 'BENCH_ONLY=overhead,scale npm run bench   # some figures only', REPO],
  [
    'docs/benchmarks.md',
    'npm run bench:peers                    # every engine at full size: about 40 min on 2 cores',
    REPO,
  ],
  [
    'docs/benchmarks.md',
    'BENCH_QUICK=1 npm run bench:peers      # small sizes, a few minutes: not the official figures',
    REPO,
  ],
  ['docs/benchmarks.md', 'BENCH_ENGINES=thoughtline,dbos npm run bench:peers', REPO],
  [
    'docs/benchmarks.md',
    'npm run bench:gate                     # the ratio gate (CI): Thoughtline against the bare SDK loop, under a minute',
    REPO,
  ],
  [
    'docs/benchmarks.md',
    'npm run bench:cluster                          # figure 2b on a fresh cluster (npm run cluster), about 8 minutes',
    REPO,
  ],
  [
    'docs/benchmarks.md',
    'npm run soak                                   # 60 minutes on a fresh cluster, then the report and the zero checks',
    REPO,
  ],
  [
    'docs/benchmarks.md',
    "SOAK_MINUTES=4 SOAK_RUNS_PER_MINUTE=10 npm run soak   # CI's size, beside the slow stage",
    REPO,
  ],
  [
    'docs/operations.md',
    'npm run soak                                  # 60 minutes on a fresh cluster named soak, then the report',
    REPO,
  ],
  [
    'docs/operations.md',
    'SOAK_MINUTES=4 SOAK_RUNS_PER_MINUTE=10 npm run soak   # the smallest size, as CI runs it (about 6 minutes)',
    REPO,
  ],
  [
    'docs/benchmarks.md',
    'BENCH_ONLY=workers npm run bench               # the same figure on a fresh dev server',
    REPO,
  ],
  [
    'docs/cli.md',
    'THOUGHTLINE_TASK_QUEUE=thoughtline-run-1a2b3c4d npx thoughtline worker   # another terminal',
    SERVER,
  ],
  ['docs/concepts.md', 'npx thoughtline run "Compare the weather in Paris and Tokyo" --max-iterations 5', LATER],
  ['docs/debugging-by-fork.md', 'npx thoughtline chain <run-id> --as-of 6', PLACEHOLDER],
  [
    'docs/debugging-by-fork.md',
    'npx thoughtline fork <run-id> --at-step 4 --model claude-haiku-4-5 --steer "Check the totals first." --dry-run',
    KEY,
  ],
  [
    'docs/debugging-by-fork.md',
    'npx thoughtline fork <run-id> --at-step 4 --model claude-haiku-4-5 --steer "Check the totals first."',
    KEY,
  ],
  // The same commands run on the real dev server in test/eval/case-from-run-gate.test.ts, on a run of its own.
  ['docs/evaluation.md', 'npx thoughtline eval add evals/production.jsonl --from-run agent-7f3c2a91', PLACEHOLDER],
  [
    'docs/evaluation.md',
    'npx thoughtline eval add evals/production.jsonl --from-run import:4c1d\u2026e07a',
    PLACEHOLDER,
  ],
  [
    'docs/auditing.md',
    'npx thoughtline fork import:4c1d\u2026e07a --at-step 5 --model claude-haiku-4-5 --dry-run',
    PLACEHOLDER,
  ],
  ['docs/auditing.md', 'npx thoughtline fork import:4c1d\u2026e07a --at-step 5', PLACEHOLDER],
  ['docs/auditing.md', 'npx thoughtline eval add evals/production.jsonl --from-run import:4c1d\u2026e07a', PLACEHOLDER],
  ['docs/evaluation.md', 'npx thoughtline eval add evals/production.jsonl --from-search "refund" --limit 10', LATER],
  ['docs/evaluation.md', 'npx thoughtline eval evals/production.jsonl --tools ./tools.cjs', LATER],
  ['docs/evaluation.md', 'npx thoughtline eval weather.jsonl', LATER],
  ['docs/evaluation.md', 'npx thoughtline run "What is the weather in Paris?" --record recordings/paris.jsonl', LATER],
  [
    'docs/evaluation.md',
    'npx thoughtline eval support.jsonl --model claude-sonnet-4-6 --model claude-haiku-4-5 --repeat 5 --budget-usd 5',
    KEY,
  ],
  ['docs/evaluation.md', 'npx thoughtline eval support.jsonl --no-worker --scorer no_repeated_calls', NO_WORKER],
  ['docs/evaluation.md', 'npx thoughtline eval eval/support.jsonl --tools eval/tools.cjs --out eval-results', LATER],
  ['docs/mcp-server.md', 'npx thoughtline mcp-server --with-worker', SERVER],
  ['docs/mcp-server.md', 'npx thoughtline token --id alice --roles developer,approver --tenant acme', SNIPPET],
  ['docs/mcp-server.md', 'npx thoughtline mcp-server --http 8090 --with-worker', SNIPPET],
  [
    'docs/mcp.md',
    'npx thoughtline tools --mcp mcp.json                   # what the servers offer, with defaults',
    MCP,
  ],
  ['docs/mcp.md', 'npx thoughtline run "List the files in docs" --mcp mcp.json', MCP],
  [
    'docs/mcp.md',
    'npx thoughtline worker --mcp mcp.json                  # a standing worker with the servers',
    SERVER,
  ],
  ['docs/memory.md', 'npx thoughtline memory list --agent billing-sync [--tenant acme] [--json]', LATER],
  ['docs/memory.md', 'npx thoughtline memory delete --agent billing-sync [--tenant acme] --id ID [--id ID]...', LATER],
  ['docs/memory.md', 'npx thoughtline memory delete --agent billing-sync [--tenant acme] --all', LATER],
  ['docs/caching.md', 'npx thoughtline cache list [--tenant acme] [--kind plan] [--json]', LATER],
  ['docs/caching.md', 'npx thoughtline cache delete [--tenant acme] --key KEY [--key KEY]...', LATER],
  ['docs/caching.md', 'npx thoughtline cache delete [--tenant acme] [--kind plan] --all', LATER],
  [
    'docs/models.md',
    'npx thoughtline run --model local "What is the weather in Paris? Use the get_weather tool."',
    LOCAL,
  ],
  ['docs/models.md', 'npx thoughtline demo --model local', LOCAL],
  [
    'docs/evaluation.md',
    'npm run eval:live -- --model local                # SmolLM2-135M in this process, no key',
    'the loop dataset on the 98 MB local model: 10-25 minutes of 2 cores; its judges are test/workflows/model/local-model-judges.test.ts',
  ],
  [
    'docs/evaluation.md',
    'npm run eval:live -- --model claude-sonnet-4-6    # with ANTHROPIC_API_KEY; any model `run` takes',
    KEY,
  ],
  [
    'docs/models.md',
    'THOUGHTLINE_MODEL=local npx thoughtline worker     # a standing worker that serves provider "local"',
    SERVER,
  ],
  [
    'docs/models.md',
    'THOUGHTLINE_MODELS=models.json npx thoughtline run "Compare the weather in Paris and Tokyo" --model fast',
    KEY,
  ],
  ['docs/models.md', 'npx thoughtline run "Compare the weather in Paris and Tokyo" --record session.jsonl', LATER],
  ['docs/offline.md', 'npx thoughtline worker --tools ./my-tools.js', SERVER],
  ['docs/offline.md', 'npx thoughtline run "What is the status of order A-1234?" --no-worker', NO_WORKER],
  ['docs/offline.md', 'npx thoughtline run "Write me a poem about the sea." --no-worker', NO_WORKER],
  ['docs/offline.md', 'npx thoughtline run "Ask me which city, then get its weather" --allow-questions', PERSON],
  ['docs/offline.md', 'npx thoughtline answer <run-id> "Paris"', PERSON],
  ['docs/offline.md', 'npx thoughtline run "Compare the weather in Paris and Tokyo and save it"', PERSON],
  [
    'docs/offline.md',
    'npx thoughtline approve <run-id>                 # or: reject <run-id> --reason "not now"',
    PERSON,
  ],
  ['docs/offline.md', 'npx thoughtline cancel <run-id> --reason "changed my mind"', PERSON],
  [
    'docs/opentelemetry.md',
    'OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 OTEL_METRICS_EXPORTER=none npx thoughtline dev',
    SERVER,
  ],
  ['docs/operations.md', 'npx thoughtline worker --tools ./tools.js', SERVER],
  [
    'docs/operations.md',
    'npm run cluster -- start               # prints TEMPORAL_ADDRESS=127.0.0.1:<port> and TEMPORAL_NAMESPACE=default',
    REPO,
  ],
  [
    'docs/operations.md',
    "export TEMPORAL_ADDRESS=$(npm run --silent cluster -- status | sed -n 's/^TEMPORAL_ADDRESS=//p')",
    REPO,
  ],
  ['docs/operations.md', 'npx thoughtline run "What is the weather in Paris?"', LATER],
  ['docs/operations.md', 'npm run cluster -- status              # each process, its pid, and whether it runs', REPO],
  [
    'docs/operations.md',
    'npm run cluster -- stop                # ends what start started; the data stays for the next start',
    REPO,
  ],
  ['docs/operations.md', "npm run cluster -- stop --delete       # and deletes the cluster's databases and logs", REPO],
  ['docs/operations.md', 'npm run --silent cluster -- start --name secure --mtls', REPO],
  [
    'docs/operations.md',
    'set -a; eval "$(npm run --silent cluster -- status --name secure | grep \'^TEMPORAL_\')"; set +a',
    REPO,
  ],
  ['docs/operations.md', 'npm run cluster -- stop --name secure --delete', REPO],
  [
    'docs/operations.md',
    'npm run test:cluster                                    # about 2 minutes on two idle cores',
    REPO,
  ],
  ['docs/operations.md', 'npm run test:cluster -- test/cluster/cluster.test.ts    # one file', REPO],
  [
    'docs/operations.md',
    "npm run test:cluster -- test/cluster/production-chaos.test.ts   # the chaos scenario alone, 1\u20133 minutes with the clusters' start",
    REPO,
  ],
  ['docs/operations.md', 'npx thoughtline worker', SERVER],
  ['docs/operations.md', 'TEMPORAL_PROFILE=prod npx thoughtline worker', SERVER],
  ['docs/operations.md', 'TEMPORAL_PROFILE=cloud npx thoughtline run "What is the weather in Paris?"', KEY],
  ['docs/operations.md', 'npm run --silent cluster -- start --name secure --mtls > secure.env', REPO],
  ['docs/operations.md', 'TEMPORAL_PROFILE=secure npx thoughtline run "What is the weather in Paris?"', KEY],
  [
    'docs/operations.md',
    'npx thoughtline token --id you --roles developer,auditor,approver --file config/tokens.json',
    LATER,
  ],
  ['docs/operations.md', 'CHAOS_SEED=<n> npm run chaos', REPO],
  ['docs/people-in-the-loop.md', 'npx thoughtline run "Compare the weather in Paris and Tokyo and save it"', PERSON],
  ['docs/people-in-the-loop.md', 'npx thoughtline status agent-\u2026', PLACEHOLDER],
  [
    'docs/people-in-the-loop.md',
    'npx thoughtline approve agent-\u2026 --as alice --roles ops --note "looks right"',
    PERSON,
  ],
  ['docs/people-in-the-loop.md', 'npx thoughtline chain <run-id> --role end_user', PLACEHOLDER],
  ['docs/people-in-the-loop.md', 'npx thoughtline worker --policy examples/visibility-policy.yaml', SERVER],
  ['docs/people-in-the-loop.md', 'npx thoughtline serve --policy examples/visibility-policy.yaml', SERVER],
  [
    'docs/people-in-the-loop.md',
    'npx thoughtline chain <run-id> --role end_user --policy examples/visibility-policy.yaml',
    PLACEHOLDER,
  ],
  [
    'docs/people-in-the-loop.md',
    'npx thoughtline watch <run-id> --policy examples/visibility-policy.yaml',
    PLACEHOLDER,
  ],
  [
    'docs/people-in-the-loop.md',
    'npx thoughtline export <run-id> --role end_user --policy examples/visibility-policy.yaml',
    PLACEHOLDER,
  ],
  ['docs/people-in-the-loop.md', 'npx thoughtline export <run-id> --out audit.md', PLACEHOLDER],
  ['docs/search.md', 'npx thoughtline search --tool files_write --text /etc', LATER],
  ['docs/search.md', 'npx thoughtline search --agent support --state failed --since 2026-11-01T00:00:00Z', LATER],
  ['docs/search.md', 'npx thoughtline search --reason max_iterations', LATER],
  ['docs/search.md', 'npx thoughtline search --min-cost 0.50 --json', LATER],
  ['docs/search.md', 'npx thoughtline chain <run-id> --summary', PLACEHOLDER],
  ['docs/search.md', 'npx thoughtline chain <run-id> --type tool_call,tool_result --tool files_write', PLACEHOLDER],
  [
    'docs/search.md',
    'npx thoughtline chain <run-id> --text "permission denied" --from 2026-11-25T10:00:00Z --to 2026-11-25T11:00:00Z',
    PLACEHOLDER,
  ],
  ['docs/security.md', 'npx thoughtline codec-server &', SERVER],
  ['docs/serve.md', 'npx thoughtline serve --with-worker', SERVER],
  [
    'docs/serve.md',
    'npx thoughtline serve --allow-origin https://app.example.com --allow-origin http://localhost:5173',
    'serves until Ctrl-C; test/server/cli-serve.test.ts runs serve with --allow-origin, test/server/cross-origin-browser.test.ts pages on two origins in Chromium',
  ],
  ['docs/serve.md', 'npx thoughtline token --id alice --roles developer,approver --tenant acme', LATER],
  ['docs/serve.md', 'npx thoughtline serve --policy ./visibility-policy.yaml', SERVER],
  [
    'docs/signed-decisions.md',
    '(umask 077; echo "{ \\"keys\\": [ $(npx thoughtline signing-key --id k2026-11) ] }" > /etc/thoughtline/keys.json)',
    LATER,
  ],
  ['docs/store.md', 'npx thoughtline serve', SERVER],
  [
    'docs/store.md',
    'npx thoughtline store                 # keep the store without serving HTTP (Ctrl-C stops)',
    SERVER,
  ],
  ['docs/store.md', 'npx thoughtline store rebuild         # re-derive every run from Temporal', LATER],
  [
    'docs/store.md',
    "npx thoughtline store check           # compare every stored chain with Temporal's; exit 1 on a difference",
    LATER,
  ],
  ['docs/store.md', 'npx thoughtline store check --run <run-id> --json', PLACEHOLDER],
  [
    'docs/teams-and-plans.md',
    'npx thoughtline run "Compare the weather in Paris, Tokyo and Berlin" --agents agents.json',
    LATER,
  ],
  ['docs/teams-and-plans.md', 'npx thoughtline run "Fix the login bug in auth.ts" --plan', LATER],
  ['docs/teams-and-plans.md', 'npx thoughtline run "Fix the login bug in auth.ts" --template debug_bug', LATER],
  ['docs/viewer.md', 'npx thoughtline dev                      # a Temporal dev server, if you have none', SERVER],
  [
    'docs/viewer.md',
    'npx thoughtline serve --with-worker      # the API, the viewer and a worker in one process',
    SERVER,
  ],
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-doc-commands-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The command with the run id and the temporary directory put in, each substitution named. */
function substituted(command: string, runId: string | undefined): string {
  let out = command;
  if (out.includes('agent-…')) {
    expect(runId, `${command} needs the id of a run started before it`).toBeDefined();
    out = out.replaceAll('agent-…', runId!);
  }
  return out
    .replace('--out audit.md', `--out ${path.join(dir, 'audit.md')}`)
    .replace('> result.json', `> ${path.join(dir, 'result.json')}`);
}

/** `bash -c command` from the repository's root, to its end, with no input. */
function sh(command: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const child = spawn('bash', ['-c', command], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

const key = (page: string, command: string) => `${page}: ${command}`;

describe('the commands of the docs, as written', () => {
  it('are each run here or listed as not run, with a reason; no listed command is gone from the docs', () => {
    const inDocs = new Set(docCommands().map((c) => key(c.page, c.command)));
    const listed = [...RUN.map(([p, c]) => key(p, c)), ...NOT_RUN.map(([p, c]) => key(p, c))];
    expect([...inDocs].filter((k) => !listed.includes(k))).toEqual([]);
    expect(listed.filter((k) => !inDocs.has(k))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
    for (const page of ['README.md', 'docs/offline.md', 'docs/context-and-workflows.md', 'docs/cli.md'])
      expect(
        RUN.some(([p]) => p === page),
        page,
      ).toBe(true);
  });

  it('run from the repository root against the dev server, offline, and end as the docs say', async () => {
    const env = cliEnv({ THOUGHTLINE_TASK_QUEUE: `doc-commands-${randomUUID()}` });
    let runId: string | undefined;
    const failed: string[] = [];
    for (const [page, command] of RUN) {
      const run = await sh(substituted(command, runId), env);
      runId ??= /Started (agent-[\w-]+)/.exec(run.output)?.[1];
      const problem = problemOf(command, run);
      if (problem) failed.push(`${page}: ${command}\n  ${problem}\n${run.output.slice(-1500)}`);
    }
    expect(runId).toMatch(/^agent-/);
    expect(failed).toEqual([]);
    const result = JSON.parse(fs.readFileSync(path.join(dir, 'result.json'), 'utf8')) as { terminationReason?: string };
    expect(result.terminationReason).toBe('success');
    expect(fs.readFileSync(path.join(dir, 'audit.md'), 'utf8')).toContain(runId);
  }, 600_000);
});

/**
 * What is wrong with how a command ended, or undefined. A usage error (exit 2) or a crash never
 * passes; help (`--help`, `-h`) ends 0 and shows its usage; a run ends 0 (success) or 1 (it ended
 * honestly without success, as the offline model does on a task no tool fits), and says how it ended.
 */
function problemOf(command: string, run: { code: number | null; output: string }): string | undefined {
  const isHelp = /\s(--help|-h)\b/.test(command);
  if (isHelp)
    return /Usage:\s+thoughtline /.test(run.output) && run.code === 0 ? undefined : 'no usage line, or not exit 0';
  const isRun = /thoughtline run /.test(command);
  const allowed = isRun ? [0, 1] : [0];
  if (!allowed.includes(run.code ?? -1)) return `exit ${run.code}, expected ${allowed.join(' or ')}`;
  if (isRun && !command.includes('--json') && !/^Result: /m.test(run.output)) return 'no "Result:" line';
  if (/Error: |TypeError|at .*\.js:\d+/.test(run.output) && !isRun) return 'an error in the output';
  return undefined;
}
