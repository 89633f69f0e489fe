/*
 * Every door of Thoughtline, and how the inventory test reads each one about a run. A door is
 * either read (its answer, in each view, must show nothing that view's lens hides) or "not a run
 * door", with the reason: the list is total, and door-inventory.test.ts fails when a live list
 * (the OpenAPI document, Fastify's route table, A2A's methods, MCP's tools and resources, the
 * CLI's commands, the viewer's scripts) names a door that is not here.
 */

export type DoorEntry =
  /** Read about the run, in each view; `how` says through what. */
  | { read: string }
  /** Not about a run, or answers nothing of one: why. */
  | { notARunDoor: string };

const read = (how: string): DoorEntry => ({ read: how });
const notARunDoor = (why: string): DoorEntry => ({ notARunDoor: why });

/** Keys: `METHOD /path` (Fastify's `:param` as `:_`), `a2a <method>`, `mcp tool|resource <name>`, `cli <command>`. */
export const DOOR_INVENTORY: Readonly<Record<string, DoorEntry>> = {
  // /v1, from the OpenAPI document.
  'POST /v1/runs': notARunDoor('starts a run: answers its id and links, nothing of its steps'),
  'GET /v1/runs': read('the list, as each person'),
  'GET /v1/runs/:_': read('the run record with its ending, as each person'),
  'GET /v1/runs/:_/chain': read('the chain, as each person'),
  'GET /v1/runs/:_/model-calls': read('the model calls (the auditor only; the others are refused)'),
  'GET /v1/runs/:_/summary': read('the stored summary, as each person'),
  'GET /v1/runs/:_/timeline': read('the stored timeline, as each person'),
  'GET /v1/runs/:_/compare/:_': read('the run compared with itself, as each person'),
  'GET /v1/search': read('a search for each hidden word, as each person'),
  'GET /v1/usage': read('the tenant usage report, as each person'),
  'GET /v1/tenants/:_/usage': read('the tenant usage, as each person'),
  'POST /v1/runs/:_/approvals/:_': read('a decision on the ended run (refused), as each person'),
  'POST /v1/runs/:_/cancel': read('a cancel of the ended run, as each person'),
  'POST /v1/runs/:_/steer': read('a steer of the ended run (refused), as each person'),
  'POST /v1/runs/:_/answers': read('an answer to the ended run (refused), as each person'),
  'POST /v1/runs/:_/budget': read('a raise of the ended run’s budget (refused), as each person'),
  'POST /v1/runs/:_/scores': read('a score on the run, as each person'),
  'GET /v1/runs/:_/scores': read('the run’s scores, as each person'),
  'POST /v1/datasets/:_/cases': read(
    'the run made a case (its model calls whole): the auditor only, refused whole when the policy narrows the auditor’s view',
  ),
  'POST /v1/runs/:_/fork': read(
    'a dry-run fork (the steps it keeps, the calls it may repeat): the auditor only, refused whole when the policy narrows the auditor’s view',
  ),
  'POST /v1/imports': notARunDoor(
    'takes a sealed export the caller sends (auditor’s view, own tenant); answers the ids, final hashes and step counts it read from that body; the runs are read through the doors above',
  ),
  'GET /v1/me': notARunDoor('the caller’s identity and views'),
  'GET /v1/health': notARunDoor('liveness, public'),
  'GET /v1/me/preferences': notARunDoor('the caller’s own visibility preferences'),
  'PUT /v1/me/preferences': notARunDoor('sets the caller’s own visibility preferences'),
  'GET /v1/schedules': notARunDoor(
    'the tenant’s schedules: their own settings, and the ids and start times of runs they started, nothing of a run’s steps',
  ),
  'POST /v1/schedules': notARunDoor('creates a schedule; answers its settings'),
  'GET /v1/schedules/:_': notARunDoor('one schedule: its settings and its runs’ ids and start times'),
  'POST /v1/schedules/:_/pause': notARunDoor('pauses a schedule; answers its settings'),
  'POST /v1/schedules/:_/unpause': notARunDoor('resumes a schedule; answers its settings'),
  'DELETE /v1/schedules/:_': notARunDoor('deletes a schedule; answers its name'),
  'POST /v1/triggers/:_': notARunDoor(
    'a signed webhook delivery starts a run: answers its id and links, nothing of its steps (as POST /v1/runs)',
  ),
  // The rest of the app's route table.
  'GET /v1/openapi.json': notARunDoor('the API’s description, public'),
  // A running sub-agent's steps on it (sub_agent_step) pass the child's own gate: events-sub-agent.test.ts.
  'GET /v1/runs/:_/events': read('the SSE stream, live and replayed, in each view'),
  'POST /v1/internal/events': notARunDoor('workers post run events in; answers a receipt'),
  'GET /v1/runs/:_/ag-ui': read('the AG-UI stream, live and replayed, as each person'),
  'POST /v1/ag-ui/:_': read(
    'a thread turn’s run streamed by the same AgUiStreams.stream as GET /v1/runs/{id}/ag-ui, which is read',
  ),
  'GET /.well-known/agent-card.json': notARunDoor('the generic agent’s card, public'),
  'GET /a2a/:_/.well-known/agent-card.json': notARunDoor('an agent’s card, public'),
  'POST /a2a/:_': read('the A2A JSON-RPC endpoint: each method below'),
  'GET /': notARunDoor('the viewer’s page (static); its data comes from the /v1 routes above'),
  'GET /viewer/:_': notARunDoor('the viewer’s static files'),
  // A2A, v1.0 and v0.3 JSON-RPC methods.
  'a2a SendMessage': read('the message that started the run, sent again (finds its task), by its sender'),
  'a2a SendStreamingMessage': read('the same message streamed, by its sender'),
  'a2a GetTask': read('the task, its answer and its chain artifact (reasoning-chain), as each person'),
  'a2a ListTasks': read('refused (not offered), as each person'),
  'a2a CancelTask': read('a cancel of the ended task, as each person'),
  'a2a SubscribeToTask': read('the task’s stream, live and after it ended, as each person'),
  'a2a CreateTaskPushNotificationConfig': read('each person’s webhook: what it received, live'),
  'a2a GetTaskPushNotificationConfig': read('each person’s config'),
  'a2a ListTaskPushNotificationConfigs': read('each person’s configs'),
  'a2a DeleteTaskPushNotificationConfig': read('each person’s config deleted'),
  'a2a GetExtendedAgentCard': notARunDoor('the agent’s card for an authenticated caller'),
  'a2a message/send': read('v0.3: the starting message sent again, by its sender'),
  'a2a message/stream': read('v0.3: the same message streamed, by its sender'),
  'a2a tasks/get': read('v0.3: the task with its chain artifact, as each person'),
  'a2a tasks/cancel': read('v0.3: a cancel of the ended task, as each person'),
  'a2a tasks/resubscribe': read('v0.3: the task’s stream after it ended, as each person'),
  'a2a tasks/pushNotificationConfig/set': read('v0.3: a webhook config on the ended task, as each person'),
  'a2a tasks/pushNotificationConfig/get': read('v0.3: each person’s config'),
  'a2a tasks/pushNotificationConfig/list': read('v0.3: each person’s configs'),
  'a2a tasks/pushNotificationConfig/delete': read('v0.3: each person’s config deleted'),
  'a2a agent/getAuthenticatedExtendedCard': notARunDoor('v0.3: the agent’s card for an authenticated caller'),
  'a2a push': read('the webhook deliveries of each person’s config, live'),
  // MCP (mcp-server --http, with the same policy).
  'mcp tool agent': read(
    'the ended run’s tool result, as tasks/result returns a call’s result (endedContent), as each person',
  ),
  'mcp tool get_run': read('get_run, as each person'),
  'mcp resource thoughtline://runs/{runId}': read('resources/read, as each person'),
  'mcp tasks/result': read('the run as a task’s result, as each person'),
  // The CLI, on the real dev server.
  'cli chain': read('chain --role R --policy, and --as-of, each view'),
  'cli watch': read('watch --policy of the ended run (the developer’s view)'),
  'cli status': read('status --role R, each view'),
  'cli runs': read('runs --tenant --role R --json, each view (ids, states, endings; spend hidden from end users)'),
  'cli tree': read('tree (the developer’s view)'),
  'cli diff': read(
    'diff of the run with itself --json --role R --policy, each view (every thought, call, result and answer)',
  ),
  'cli export': read('export --format json --role R --policy, each view'),
  'cli search': read('search --text <each hidden word> --role R --policy on the store'),
  'cli fork': read('fork --dry-run (the chain it would fork from)'),
  'cli demo': notARunDoor('starts its own demo runs and prints them as `run` does'),
  'cli dev': notARunDoor('starts the Temporal dev server'),
  'cli worker': notARunDoor('hosts a worker'),
  'cli versions': notARunDoor('worker build ids'),
  'cli set-current-version': notARunDoor('sets the current worker build id'),
  'cli serve': notARunDoor('hosts the HTTP doors above'),
  'cli mcp-server': notARunDoor('hosts the MCP doors above'),
  'cli token': notARunDoor('writes an API token'),
  'cli signing-key': notARunDoor('prints a new signing key'),
  'cli tools': notARunDoor('lists tools'),
  'cli schedule': notARunDoor('schedules’ settings and the ids of runs they started; nothing of a run’s steps'),
  'cli run': notARunDoor('starts a run and prints it as its own caller (the starter sees their own run)'),
  'cli eval': notARunDoor('runs a dataset’s own runs and scores them'),
  'cli eval add': read('eval add --from-run --policy: the auditor’s view, refused whole when the policy narrows it'),
  'cli eval report': notARunDoor(
    'an experiment’s runs per variant as counts, rates and means (success, late scores’ values, cost, tokens, latency) from visibility and the scores workflows; no step, answer or score comment',
  ),
  'cli approve': notARunDoor('a decision; prints its receipt'),
  'cli reject': notARunDoor('a decision; prints its receipt'),
  'cli steer': notARunDoor('sends an instruction; prints its receipt'),
  'cli answer': notARunDoor('sends an answer; prints its receipt'),
  'cli raise-budget': notARunDoor('raises or stops a paused budget; prints the pause message and its receipt'),
  'cli verify': notARunDoor('checks an export file it is given'),
  'cli import': notARunDoor(
    'verifies an export file it is given and writes it to the store; prints its run ids and step counts (chain and search read them)',
  ),
  'cli cancel': notARunDoor('cancels a run; prints its receipt'),
  'cli score': notARunDoor('records a score; prints it'),
  'cli memory': notARunDoor('an agent’s learnings, not a run’s steps'),
  'cli cache': notARunDoor(
    'the run cache file on this machine (cached plans and results, read by whoever may read the file), not a run’s steps',
  ),
  'cli store': notARunDoor('store administration (check, rebuild): counts'),
  'cli usage': notARunDoor('costs and counts by tenant, no run content'),
  'cli codec-server': notARunDoor('hosts the payload codec for the Temporal UI'),
  'cli completion': notARunDoor('prints a shell completion script'),
};

/** The /v1 routes the viewer's scripts read (checked against its scripts). */
export const VIEWER_DATA_ROUTES: readonly string[] = [
  '/v1/datasets/:_/cases',
  '/v1/me',
  '/v1/me/preferences',
  '/v1/runs',
  '/v1/runs/:_',
  '/v1/runs/:_/answers',
  '/v1/runs/:_/approvals/:_',
  '/v1/runs/:_/budget',
  '/v1/runs/:_/cancel',
  '/v1/runs/:_/chain',
  '/v1/runs/:_/compare/:_',
  '/v1/runs/:_/events',
  '/v1/runs/:_/scores',
  '/v1/runs/:_/steer',
  '/v1/runs/:_/summary',
  '/v1/runs/:_/timeline',
  '/v1/search',
  '/v1/usage',
];
