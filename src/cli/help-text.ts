/** What the help calls a run's id, once, so every command's part says it the same way. */
const RUN_ID_NOTE = `A <run-id> is the agent-… id that run prints: Temporal's workflow id, /v1's runId, A2A's and
  MCP's task id.`;

/** What `thoughtline --help` prints; a test checks that it names every option of the command table. */
export const HELP = `thoughtline — durable, transparent ReAct agents on Temporal

Usage:
  thoughtline help [<command>]          this text, or one command's part of it (also --help, -h)
  thoughtline --version                 the installed version (also -v)
  ${RUN_ID_NOTE}
  thoughtline demo [--team] [--model local]
                                        start what is missing and run the weather demo;
                                        --team: a lead agent with weather sub-agents in parallel;
                                        --model local: SmolLM2-135M in this process (98 MB, once)
  thoughtline dev [--port N]            run a Temporal dev server until Ctrl-C (default port 7233,
                                        Web UI on the port + 1000); other commands find it on 7233,
                                        or set TEMPORAL_ADDRESS=127.0.0.1:N
  thoughtline worker [--tools FILE] [--mcp FILE] [--a2a FILE] [--unversioned | --keep-current] [--policy FILE]
                                        run an agent worker until Ctrl-C; --tools: a JS module
                                        exporting "tools": an array of defineTool(...) results,
                                        and "agents": defineAgent(...) results runs start by name;
                                        --mcp: MCP servers, { "mcpServers": { ... } } as desktop
                                        clients write it; their tools are <server>__<tool>.
                                        --a2a: remote A2A agents sub-agents may call, { "allow":
                                        [origins or card URLs], "auth": { origin: { "bearerEnv" } } };
                                        without it every remote agent is refused.
                                        It declares a version (deployment THOUGHTLINE_DEPLOYMENT_NAME,
                                        default the task queue; build: the package version and its
                                        workflow code's hash), makes it current (new runs come to
                                        it; open runs stay on theirs) unless --keep-current;
                                        --unversioned declares none; --policy: the visibility
                                        policy (default THOUGHTLINE_VISIBILITY_POLICY) whose
                                        telemetry.view OpenTelemetry content capture shows; one
                                        that cannot be read stops it (exit 2)
  thoughtline versions [--json]         the deployment's worker versions: current, draining
                                        (pinned runs still open), drained; and how many of each
                                        version's workers poll the task queue now
  thoughtline set-current-version <buildId> | --unversioned
                                        send new runs to that version's workers (a rollout or a
                                        rollback); --unversioned: to unversioned workers
  thoughtline serve [options]           the HTTP API (/v1, OpenAPI at /v1/openapi.json) and the
                                        viewer until Ctrl-C (docs/serve.md); with no token file and
                                        no OIDC it writes one for "you" and prints the URL to open
      --port N / --host H    default 8080 on 127.0.0.1
      --with-worker          also run a worker in this process; --tools FILE, --mcp FILE,
                             --unversioned and --keep-current as for worker
      --agents FILE          the agents A2A (docs/a2a.md) and AG-UI offer: the module's agents
                             export (default --tools's), besides the generic agent
      --tokens FILE          token hashes (default THOUGHTLINE_TOKENS or .thoughtline/tokens.json)
      --oidc-issuer URL --oidc-audience AUD --oidc-jwks-url URL [--oidc-roles-claim PATH]
                             [--oidc-tenant-claim PATH]   also accept JWTs from an OIDC issuer
                             [--oidc-require-tenant]      refuse tokens without a tenant
                             [--oidc-token-types T,...]   accepted "typ" headers (default at+jwt)
      --signing-keys FILE    sign every decision with these Ed25519 keys; --require-signatures:
                             runs started here refuse decisions without a valid signature
      --store VALUE          the chain store it keeps (default THOUGHTLINE_STORE, else
                             .thoughtline/store.sqlite; a postgres:// URL; off: none)
      --policy FILE          the visibility policy every read applies (default
                             THOUGHTLINE_VISIBILITY_POLICY); unreadable: refuses to start (exit 2)
  thoughtline mcp-server [options]      every agent as an MCP tool (docs/mcp-server.md): stdio by
                                        default (stdout carries MCP only; as THOUGHTLINE_TOKEN's
                                        identity, else the local user as for run), until the client
                                        or Ctrl-C stops it; approvals and questions are elicitations
      --http PORT [--host H] Streamable HTTP at /mcp instead (0: a free port), authenticated
                             like serve: --tokens FILE, the --oidc-* flags
      --agents FILE          the module whose "agents" are the tools (default --tools's)
      --with-worker          also run a worker in this process; --tools FILE, --mcp FILE
      --signing-keys FILE    sign decisions; --require-signatures as for serve
  thoughtline token --id ID [--roles a,b] [--tenant T] [--file FILE]
                                        add a bearer token for a person to the token file (0600;
                                        only its hash is kept; serve reloads it) and print it once
  thoughtline signing-key [--id ID]     print a new Ed25519 keyring entry for serve --signing-keys
                                        (docs/signed-decisions.md: the file, rotation)
  thoughtline tools [--tools FILE] [--mcp FILE] [--json]
                                        list the tools a worker with these flags offers: type,
                                        read-only, approval default, required roles
  thoughtline run "<task>" [options]    start an agent and print its steps as they land: on a
                                        worker already polling the task queue (it says so), else
                                        on its own worker on a private queue; Ctrl-C stops following
      --json                 print only the AgentResult as JSON on stdout
      --no-worker            only a worker already polling the task queue (none: exit 1)
      --max-iterations N     default 10
      --model NAME           default THOUGHTLINE_MODEL or claude-sonnet-4-6; with a registry
                             (THOUGHTLINE_MODELS) an entry's or a group's name; "local":
                             SmolLM2-135M run in this process's worker (weights fetched once, 98 MB)
      --strategy S           native (the model's tool calling) or react-text (Thought / Action
                             text, for models without tool calling); default the registry
                             entry's, else native, switching to react-text if the server
                             says the model has no tool calling
      --workflow-id ID       the run's id (Temporal's workflow id); default agent-<uuid>
      --agent NAME           start the agent a worker registered under NAME (its prompt,
                             examples, tools and version); needs a standing worker that does
      --agents FILE          JSON of sub-agents by tool name ({ "researcher": { "description",
                             "instructions", "model", "tools", "limits" } }), offered as tools;
                             checked against run's own worker's tools before it starts
      --plan                 plan the task as tasks with dependencies before acting
      --allow-questions      offer the agent a tool to ask you a question; the run waits for
                             thoughtline answer <run-id> "<text>"
      --template NAME        seed the plan: debug_bug, implement_feature or refactor_code
      --files a.py,b.md      give the run these files (repeatable), read under --files-root;
                             text only, each cut at 32 KiB, at most 20 and 160 KiB in all;
                             this process's worker adds files_read/list/search rooted there
      --files-root DIR       where --files are read and the file tools are rooted (default .)
      --context JSON|@FILE   a JSON object of facts for the run (at most 16 KiB); secrets in
                             it and in --files are redacted before the run starts
      --workflow FILE|NAME   the plan's steps as written: a YAML or JSON workflow file (steps,
                             after, tools, approval; checked with line numbers first) or
                             debug_bug, implement_feature, refactor_code; the task defaults
                             to its description; not with --template
      --record FILE          append the run's model replies and tool executions (secrets
                             redacted) to FILE, JSONL, to replay offline with both mocked:
                             loadRecordedTurns(FILE) and replayToolCalls(tools, FILE)
      --mcp FILE             also offer these MCP servers' tools; runs on this process's worker
      --no-dashboard         one line per step even on a terminal (the live dashboard is the
                             default on a terminal of 60+ columns without NO_COLOR: docs/dashboard.md)
  thoughtline eval <dataset> [options]  run every case of a dataset (.jsonl: a case a line; .yaml: a
                                        list) as agent runs under one durable evaluationWorkflow,
                                        print progress and the success criteria, and write
                                        result.json, report.md and report.html (docs/evaluation.md)
      --model M              a variant per --model (repeatable; names as for run); default
                             the configured model
      --agent NAME           a variant per registered agent (repeatable; × each --model)
      --repeat N             runs per case and variant (default 1; up to 100): intervals, pass@k
      --concurrency N        agent runs at once, across the evaluation (default 4)
      --budget-usd X / --budget-tokens N   one budget for every run; once spent, the rest skip
      --judge MODEL          grade each run's reasoning coherence with this pinned model
      --scorer NAME          also run this worker-registered scorer on every case (repeatable)
      --tools FILE           run this process's own worker with these tools (as worker --tools)
      --no-worker            only a worker already polling the task queue (none: exit 1)
      --out DIR              where the result and reports go (default eval-results/<id>/)
      --baseline FILE        compare with an earlier result.json: exit 1 on a significant drop
                             or a case that passed every run there and fails every run now;
                             --baseline-any-dataset compares even when the dataset changed
      --resume ID            follow an evaluation started before (after Ctrl-C) to its reports
      --json                 also print the summary (and the gate) as JSON on stdout
                             Exit 1 when the gate finds a regression or the evaluation was
                             cancelled; 130 on Ctrl-C (it goes on: resume with --resume)
  thoughtline watch <run-id>            follow a run's steps until it ends
      --dashboard            redraw one screen instead (goal, iteration, plan, thought, action,
                             sub-agents, cost) on a terminal of 60+ columns (docs/dashboard.md)
      --policy FILE          read through a visibility policy (chain and export take it too;
                             default THOUGHTLINE_VISIBILITY_POLICY); an unreadable one exits 2
                             (docs/people-in-the-loop.md, "Visibility policy")
  thoughtline chain <run-id> [--json] [--role end_user|developer|auditor] [--expand]
                  [--after-step N] [--limit N] [--as-of N] [--policy FILE]
                                        print a run's reasoning chain in a role's view; --expand
                                        also prints each sub-agent's chain under its result;
                                        --after-step and --limit print one page of steps;
                                        --as-of: the chain, spend and plan as they stood at step N
                  [--summary] [--type T,T] [--tool NAME] [--text TEXT] [--from ISO] [--to ISO]
                                        --summary: counts, tools, cost and the main decisions;
                                        filters: step types, a tool, text as the view shows it, a
                                        time range. Read from the chain store when it has the run
                                        (THOUGHTLINE_STORE, or .thoughtline/store.sqlite if there)
  thoughtline search [--agent A] [--tenant T] [--caller ID] [--state S] [--tool NAME] [--text TEXT]
                  [--min-cost USD] [--max-cost USD] [--since ISO] [--until ISO] [--role R] [--json]
                  [--policy FILE]       runs in the chain store matching every filter: runs of
                                        --tenant only (none: runs without a tenant), in --role's
                                        view (default developer) through --policy's lens
                                        (default THOUGHTLINE_VISIBILITY_POLICY), as /v1/search
  thoughtline usage --tenant T --since 7d|12h|ISO [--until ISO] [--json]
                                        one tenant's runs, model and tool calls, tokens and cost
                                        (total, by agent, by model) of runs started in the range
                                        (at most 366 days), from the chain store
  thoughtline status <run-id> [--json] [--role end_user|developer|auditor]
                                        print a run's state, iteration, tokens, cost, what it waits
                                        for, its plan, sub-agents and the calls awaiting approval
                                        (its sub-agents' included), in a role's view (default
                                        developer: sensitive fields redacted); --json: the record
  thoughtline tree <run-id> [--json]    print the run and its sub-agents, recursively: state,
                                        iterations, tokens, cost, budgets, plan, pending approvals
  thoughtline approve <run-id> [callId] [--note TEXT] [--mark-done [--result TEXT]] [--yes]
  thoughtline reject <run-id> [callId] --reason TEXT [--yes]
                                        decide a call awaiting approval (the only one if no id),
                                        naming the run that waits or any run above it; shows the
                                        call and asks y/N first (--yes: no question, for scripts)
  thoughtline steer <run-id> "<instruction>"   add an instruction before the next thought
  thoughtline answer <run-id> "<text>"         answer the question the agent asked
      --as ID / --roles a,b  who decides (default THOUGHTLINE_USER / THOUGHTLINE_ROLES, OS user),
                             for approve, reject, steer, answer, score and export
  thoughtline export <run-id> [--format json|md] [--role auditor|developer|end_user] [--out FILE]
                  [--policy FILE]
  thoughtline export --query "<visibility query>" [--limit N] [--format json|md] [--out FILE]
                                        the audit report: who started it, chain, approvals, costs,
                                        outcome, sub-agents' reports; the auditor's has every model
                                        call's whole request and reply. Sealed with a hash chain,
                                        signed with --keyring FILE (or THOUGHTLINE_EXPORT_KEYRING).
                                        Format: --format, else FILE's extension (.json: JSON, a
                                        bundle with --query; .md: markdown), else markdown on stdout
  thoughtline score <run-id> --name N --value V [--comment C] [--source S]
                                        attach an outcome score to a run, open or ended: a number
                                        or true/false, by --as (as for approve); prints it as stored
  thoughtline memory list --agent NAME [--tenant NAME] [--json]
  thoughtline memory delete --agent NAME [--tenant NAME] (--id ID... | --all)
                                        what runs of an agent learnt (planning.memory), oldest
                                        first, with each one's run and time, and forgetting it; the
                                        memory of runs without a tenant unless --tenant names one
  thoughtline cache list [--tenant NAME] [--kind tool|model|plan] [--json]
  thoughtline cache delete [--tenant NAME] [--kind K] (--key KEY... | --all)
                                        what this machine's run cache holds (tool results, model
                                        replies, plans) with the run and time each came from, and
                                        forgetting it; runs without a tenant unless --tenant names one
  thoughtline store [--store VALUE]     keep the chain store from run events and Temporal until
                                        Ctrl-C (what serve does, without the HTTP API)
  thoughtline store rebuild             re-derive the chain store from every run Temporal has
  thoughtline store check [--run ID] [--json]
                                        compare the store with Temporal's chains; exit 1 on any
                                        difference
  thoughtline fork <run-id> --at-step N [--model M] [--steer TEXT] [--tools a,b] [--dry-run] [--json]
                                        a new run from the conversation and spend at step N (up to
                                        the next model call), with the change; lists first the calls
                                        after that point it may make again. The original is untouched
  thoughtline verify <file> (--public-key KEY | --final-hash HASH)...
                                        check a JSON export: names the first altered step or section;
                                        passes only when signed by a key you give, or when its final
                                        hash is one you kept from the export
  thoughtline cancel <run-id> [--reason TEXT] [--hard]
                                        stop a run: it finishes the current step, summarises and
                                        returns "cancelled"; --hard cancels through Temporal at once
  thoughtline codec-server [--port N] [--cors-origin URL]
                                        decrypt payloads for the Web UI and the temporal CLI
                                        (needs THOUGHTLINE_ENCRYPTION_KEYS, THOUGHTLINE_CODEC_TOKEN)

Environment: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, THOUGHTLINE_TASK_QUEUE, THOUGHTLINE_MODEL,
ANTHROPIC_API_KEY (without it the offline model runs: docs/offline.md), ANTHROPIC_BASE_URL,
THOUGHTLINE_USER, THOUGHTLINE_ROLES, THOUGHTLINE_ENCRYPTION_KEYS, THOUGHTLINE_CODEC_TOKEN,
THOUGHTLINE_TOKENS, THOUGHTLINE_TOKEN (mcp-server over stdio).
Secured clusters and Temporal Cloud, as Temporal's own CLI reads them: TEMPORAL_API_KEY,
TEMPORAL_TLS, TEMPORAL_TLS_CLIENT_CERT_PATH, TEMPORAL_TLS_CLIENT_KEY_PATH,
TEMPORAL_TLS_SERVER_CA_CERT_PATH, TEMPORAL_TLS_SERVER_NAME (and the _DATA forms), TEMPORAL_PROFILE,
TEMPORAL_CONFIG_FILE (a temporal.toml of profiles): docs/operations.md.

Exit codes: 0 success, 1 the agent ended another way or the command failed, 2 a usage mistake,
130 Ctrl-C while run followed its run.
`;

/** A usage line of HELP: `  thoughtline <command> …`. */
const USAGE_LINE = /^  thoughtline ([a-z][a-z-]*)/;

/**
 * `thoughtline help <command>` and `<command> --help`: the parts of HELP whose usage lines name
 * the command (with the lines under them), and what a run id is when they use one.
 */
export function commandHelp(command: string): string {
  const usage = HELP.slice(HELP.indexOf('Usage:\n') + 'Usage:\n'.length, HELP.indexOf('\n\n', HELP.indexOf('Usage:')));
  const lines = usage.replace(`  ${RUN_ID_NOTE}\n`, '').split('\n');
  // Usage lines in a row share the lines under them (approve and reject, steer and answer).
  const groups: { names: string[]; lines: string[] }[] = [];
  for (const line of lines) {
    const name = USAGE_LINE.exec(line)?.[1];
    const last = groups.at(-1);
    if (name !== undefined && last && last.lines.every((l) => USAGE_LINE.test(l))) {
      last.names.push(name);
      last.lines.push(line);
    } else if (name !== undefined) groups.push({ names: [name], lines: [line] });
    else last?.lines.push(line);
  }
  const own = groups.filter((g) => g.names.includes(command)).flatMap((g) => g.lines);
  const part = own.join('\n');
  return [
    `Usage:\n${part}`,
    ...(part.includes('<run-id>') ? [`\n  ${RUN_ID_NOTE}`] : []),
    '\n\nEvery command takes --help; the environment variables: thoughtline help.\n\n',
    HELP.slice(HELP.indexOf('Exit codes:')),
  ].join('');
}
