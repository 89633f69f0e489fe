import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { a2aWorkflowId } from '../../src/server/a2a/tasks/start-run';
import { GENERIC_AGENT } from '../../src/server/catalog/agent-catalog';
import { ActionCounter, readRunFromTemporal } from '../../src/server/chain-store/read-run-from-temporal';
import { writeTemporalRun } from '../../src/server/chain-store/write-temporal-run';
import { protocolRunInput } from '../../src/server/protocols/protocol-run-input';
import { registerViewerRoute } from '../../src/server/routes/viewer-route';
import type { LoadedPolicy } from '../../src/governance';
import type { AgentInputInit, ViewerRole } from '../../src/domain';
import type { ModelProvider } from '../../src/domain/model/model-provider';
import type { ChainStore } from '../../src/store/chain-store';
import { openChainStore } from '../../src/store/open-chain-store';
import type { ToolDefinition } from '../../src/tools/define-tool';
import type { AgentWorkerOptions } from '../../src/worker';
import { cliEnv, runCli } from '../helpers/cli-process';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import type { TestEnv } from '../helpers/temporal-env';
import { writePolicy } from '../server/policy-fixture';
import { eventually, startServerHarness, type Person, type ServerHarness } from '../server/server-harness';
import { DoorReads, READER, VIEWS, bodyText } from './door-reads';
import { startMcpFront, type McpFront } from './mcp-front';

const DEV = { id: 'dev', roles: ['developer'], tenant: 'acme', via: 'token' as const };

/** A model whose first call waits for `release()`, so the live doors follow before anything is said. */
/** Doors that show a run's steps or ending in every view: the reads that prove a read reached the run. */
export const DOORS_SHOWING_THE_RUN = [
  'GET /v1/runs/:_',
  'GET /v1/runs/:_/chain',
  'GET /v1/runs/:_/events',
  'GET /v1/runs/:_/ag-ui',
  'a2a GetTask',
  'a2a tasks/get',
  'a2a SubscribeToTask',
  'a2a push',
  'mcp tool get_run',
  'mcp resource thoughtline://runs/{runId}',
  'mcp tasks/result',
  'cli chain',
  'cli status',
  'cli export',
] as const;

export type HeldModel = ModelProvider & { release(): void; called(): boolean };

export interface EveryDoorOptions {
  /** Names the temporary folder and the MCP front. */
  name: string;
  tools: readonly ToolDefinition[];
  model: HeldModel;
  /** The visibility policy given to `serve --policy` and the CLI readers. */
  policy: string;
  task: string;
  /** The message id the run is started under (A2A's id for a message's task): a resend finds the run. */
  messageId: string;
  /** The words each view must not show: each is searched for (GET /v1/search, `cli search`). */
  hidden: Record<ViewerRole, readonly string[]>;
  /** More of the run's input (e.g. the guardrails it names). */
  input?: Partial<AgentInputInit>;
  guardrails?: AgentWorkerOptions['guardrails'];
  /** The step `chain --as-of` and `fork --at-step` read at; default 4. */
  forkStep?: number;
  /** A word every view shows, that `cli search control` must find the run by; default `c-1`. */
  controlWord?: string;
}

export interface EveryDoorRun {
  s: ServerHarness;
  mcp: McpFront;
  runId: string;
  reads: DoorReads;
  close(): Promise<void>;
}

/**
 * Starts one run behind every door (serve's /v1, SSE, AG-UI, A2A with push, mcp-server, the
 * chain store, the CLI readers), follows it live in every view, then reads the ended run through
 * each door in each view: what each answered, in `reads`. The door inventory test and the
 * guardrail test read their runs with it.
 */
export async function readEveryDoor(env: TestEnv, o: EveryDoorOptions): Promise<EveryDoorRun> {
  let s!: ServerHarness;
  let mcp!: McpFront;
  let store!: ChainStore;
  let policy!: LoadedPolicy;
  let dir!: string;
  let hook!: http.Server;
  let runId!: string;
  const mcpAs = {} as Record<Person, Client>;
  const reads = new DoorReads();
  /** What each person's webhook received, by the token of their push config. */
  const pushed = new Map<string, string[]>();
  const MESSAGE_ID = o.messageId;
  const DOOR_TASK = o.task;
  const HIDDEN_FROM = o.hidden;

  /** A JSON-RPC call to the A2A endpoint as `who`: v1.0, or v0.3 when `legacy`; the whole body (JSON or SSE). */
  async function rpc(who: Person, method: string, params: unknown, legacy = false): Promise<string> {
    const response = await fetch(`${s.server.url}/a2a/${GENERIC_AGENT}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${s.tokens[who]}`,
        'content-type': 'application/json',
        ...(legacy ? {} : { 'a2a-version': '1.0' }),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return bodyText(response);
  }

  const getText = async (who: Person, url: string): Promise<string> =>
    JSON.stringify((await s.call(who, 'GET', url)).json);

  /** The live doors, opened while the run's first model call waits: their whole bodies once the run ends. */
  async function openLiveDoors(model: HeldModel, hookUrl: string): Promise<() => Promise<void>> {
    await eventually('the run to call its model', async () => (model.called() ? true : undefined), 30_000);
    const pending: Promise<void>[] = [];
    const follow = async (door: string, view: ViewerRole, response: Promise<Response>) => {
      const opened = await response;
      pending.push(bodyText(opened).then((text) => reads.add(door, view, text)));
    };
    const headers = (who: Person) => ({ authorization: `Bearer ${s.tokens[who]}` });
    await Promise.all(
      VIEWS.flatMap((view) => {
        const who = READER[view];
        return [
          follow(
            'GET /v1/runs/:_/events',
            view,
            fetch(`${s.server.url}/v1/runs/${runId}/events`, { headers: headers(who) }),
          ),
          follow(
            'GET /v1/runs/:_/ag-ui',
            view,
            fetch(`${s.server.url}/v1/runs/${runId}/ag-ui`, { headers: headers(who) }),
          ),
          follow(
            'a2a SubscribeToTask',
            view,
            fetch(`${s.server.url}/a2a/${GENERIC_AGENT}`, {
              method: 'POST',
              headers: { ...headers(who), 'content-type': 'application/json', 'a2a-version': '1.0' },
              body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SubscribeToTask', params: { id: runId } }),
            }),
          ),
          rpc(who, 'CreateTaskPushNotificationConfig', { taskId: runId, url: hookUrl, token: `push-${who}` }).then(
            (text) => reads.add('a2a CreateTaskPushNotificationConfig', view, text),
          ),
        ];
      }),
    );
    return async () => {
      await Promise.all(pending);
    };
  }

  /** Every read of the ended run, door by door. */
  async function readEndedRun(): Promise<void> {
    const v1 = `/v1/runs/${runId}`;
    await Promise.all([
      reads.each('GET /v1/runs', async (_v, who) => getText(who, '/v1/runs?pageSize=100')),
      reads.each('GET /v1/runs/:_', async (_v, who) => getText(who, v1)),
      reads.each('GET /v1/runs/:_/chain', async (_v, who) => getText(who, `${v1}/chain`)),
      reads.each('GET /v1/runs/:_/model-calls', async (_v, who) => getText(who, `${v1}/model-calls`)),
      reads.each('GET /v1/runs/:_/summary', async (_v, who) => getText(who, `${v1}/summary`)),
      reads.each('GET /v1/runs/:_/timeline', async (_v, who) => getText(who, `${v1}/timeline`)),
      reads.each('GET /v1/runs/:_/compare/:_', async (_v, who) => getText(who, `${v1}/compare/${runId}`)),
      reads.each('GET /v1/search', async (view, who) => {
        const found = await Promise.all(
          HIDDEN_FROM[view].map(async (word) => {
            const { json } = await s.call(
              who,
              'GET',
              `/v1/search?includeSubAgents=true&text=${encodeURIComponent(word)}`,
            );
            const hits = (json.hits ?? []) as unknown[];
            return hits.length > 0 ? `found by ${word}: ${JSON.stringify(hits)}` : '';
          }),
        );
        const { json } = await s.call(who, 'GET', '/v1/search?includeSubAgents=true&limit=100');
        return found.join('') + JSON.stringify(json);
      }),
      reads.each('GET /v1/usage', async (_v, who) => getText(who, '/v1/usage')),
      reads.each('GET /v1/tenants/:_/usage', async (_v, who) => getText(who, '/v1/tenants/acme/usage')),
      reads.each('GET /v1/runs/:_/scores', async (_v, who) => getText(who, `${v1}/scores`)),
      reads.each('GET /v1/runs/:_/events', async (view, who) => {
        const response = await fetch(`${s.server.url}${v1}/events?view=${view}`, {
          headers: { authorization: `Bearer ${s.tokens[who]}` },
        });
        return bodyText(response);
      }),
      reads.each('GET /v1/runs/:_/ag-ui', async (_v, who) => {
        const response = await fetch(`${s.server.url}${v1}/ag-ui`, {
          headers: { authorization: `Bearer ${s.tokens[who]}` },
        });
        return bodyText(response);
      }),
    ]);
    // Writes that answer something: one at a time, on the ended run.
    for (const view of VIEWS) {
      const who = READER[view];
      const post = async (url: string, body: unknown) => JSON.stringify((await s.call(who, 'POST', url, body)).json);
      reads.add(
        'POST /v1/runs/:_/approvals/:_',
        view,
        await post(`${v1}/approvals/toolu_d1`, { approved: true, argumentsHash: 'h' }),
      );
      reads.add('POST /v1/runs/:_/steer', view, await post(`${v1}/steer`, { text: 'and the notes?' }));
      reads.add('POST /v1/runs/:_/answers', view, await post(`${v1}/answers`, { text: 'yes' }));
      reads.add('POST /v1/runs/:_/budget', view, await post(`${v1}/budget`, { tokens: 1_000 }));
      reads.add('POST /v1/runs/:_/cancel', view, await post(`${v1}/cancel`, {}));
      reads.add('POST /v1/runs/:_/scores', view, await post(`${v1}/scores`, { name: 'helpful', value: 1 }));
      reads.add('POST /v1/datasets/:_/cases', view, await post('/v1/datasets/door/cases', { runId }));
      reads.add('POST /v1/runs/:_/fork', view, await post(`${v1}/fork`, { atStep: 0, dryRun: true }));
    }
    await readA2a();
    await readMcp();
  }

  async function readA2a(): Promise<void> {
    const v1Message = { messageId: MESSAGE_ID, role: 'ROLE_USER', parts: [{ text: DOOR_TASK }] };
    const v03Message = {
      kind: 'message',
      messageId: MESSAGE_ID,
      role: 'user',
      parts: [{ kind: 'text', text: DOOR_TASK }],
    };
    // Only the sender's resend finds the run (the message id is keyed by its sender): the others read it otherwise.
    for (const [door, method, params, legacy] of [
      ['a2a SendMessage', 'SendMessage', { message: v1Message }, false],
      ['a2a SendStreamingMessage', 'SendStreamingMessage', { message: v1Message }, false],
      ['a2a message/send', 'message/send', { message: v03Message }, true],
      ['a2a message/stream', 'message/stream', { message: v03Message }, true],
    ] as const)
      reads.add(door, 'developer', await rpc('dev', method, params, legacy));
    await Promise.all([
      reads.each('a2a GetTask', (_v, who) => rpc(who, 'GetTask', { id: runId })),
      reads.each('a2a ListTasks', (_v, who) => rpc(who, 'ListTasks', {})),
      reads.each('a2a CancelTask', (_v, who) => rpc(who, 'CancelTask', { id: runId })),
      reads.each('a2a SubscribeToTask', (_v, who) => rpc(who, 'SubscribeToTask', { id: runId })),
      reads.each('a2a ListTaskPushNotificationConfigs', (_v, who) =>
        rpc(who, 'ListTaskPushNotificationConfigs', { taskId: runId }),
      ),
      reads.each('a2a tasks/get', (_v, who) => rpc(who, 'tasks/get', { id: runId }, true)),
      reads.each('a2a tasks/cancel', (_v, who) => rpc(who, 'tasks/cancel', { id: runId }, true)),
      reads.each('a2a tasks/resubscribe', (_v, who) => rpc(who, 'tasks/resubscribe', { id: runId }, true)),
      reads.each('a2a tasks/pushNotificationConfig/list', (_v, who) =>
        rpc(who, 'tasks/pushNotificationConfig/list', { id: runId }, true),
      ),
    ]);
    for (const view of VIEWS) {
      const who = READER[view];
      const listed = JSON.parse(await rpc(who, 'ListTaskPushNotificationConfigs', { taskId: runId })) as any;
      const configId = String(listed.result?.configs?.[0]?.id ?? 'none');
      reads.add(
        'a2a GetTaskPushNotificationConfig',
        view,
        await rpc(who, 'GetTaskPushNotificationConfig', { taskId: runId, id: configId }),
      );
      reads.add(
        'a2a tasks/pushNotificationConfig/get',
        view,
        await rpc(who, 'tasks/pushNotificationConfig/get', { id: runId, pushNotificationConfigId: configId }, true),
      );
      reads.add(
        'a2a tasks/pushNotificationConfig/set',
        view,
        await rpc(
          who,
          'tasks/pushNotificationConfig/set',
          { taskId: runId, pushNotificationConfig: { url: 'http://127.0.0.1:9/hook', token: 'late' } },
          true,
        ),
      );
      reads.add(
        'a2a tasks/pushNotificationConfig/delete',
        view,
        await rpc(who, 'tasks/pushNotificationConfig/delete', { id: runId, pushNotificationConfigId: configId }, true),
      );
      reads.add(
        'a2a DeleteTaskPushNotificationConfig',
        view,
        await rpc(who, 'DeleteTaskPushNotificationConfig', { taskId: runId, id: configId }),
      );
      reads.add('a2a push', view, (pushed.get(`push-${who}`) ?? []).join('\n'));
    }
  }

  async function readMcp(): Promise<void> {
    const uri = `thoughtline://runs/${runId}`;
    await Promise.all([
      reads.each('mcp tool get_run', async (_v, who) =>
        JSON.stringify(await mcpAs[who].callTool({ name: 'get_run', arguments: { runId } }, CallToolResultSchema)),
      ),
      reads.each('mcp resource thoughtline://runs/{runId}', async (_v, who) =>
        JSON.stringify(await mcpAs[who].readResource({ uri }).catch((err: Error) => ({ error: err.message }))),
      ),
      reads.each('mcp tasks/result', async (_v, who) =>
        JSON.stringify(
          await mcpAs[who]
            .request({ method: 'tasks/result', params: { taskId: runId } }, CallToolResultSchema)
            .catch((err: Error) => ({ error: err.message })),
        ),
      ),
    ]);
    // A call's result once its run ended is the same endedContent tasks/result returns.
    for (const view of VIEWS) reads.add('mcp tool agent', view, reads.of('mcp tasks/result')?.[view] ?? '');
  }

  /** The CLI readers, as processes on the real dev server, a few at a time. */
  async function readCli(): Promise<void> {
    const temporal = cliEnv({ THOUGHTLINE_STORE: 'off', THOUGHTLINE_USER: 'dev' });
    const stored = cliEnv({ THOUGHTLINE_STORE: `sqlite:${path.join(dir, 'store.sqlite')}`, THOUGHTLINE_USER: 'dev' });
    const jobs: Array<[string, ViewerRole, string[], NodeJS.ProcessEnv]> = [];
    for (const view of VIEWS) {
      jobs.push(['cli chain', view, ['chain', runId, '--role', view, '--policy', policy.path], temporal]);
      jobs.push([
        'cli chain',
        view,
        ['chain', runId, '--as-of', String(o.forkStep ?? 4), '--role', view, '--policy', policy.path],
        temporal,
      ]);
      jobs.push(['cli status', view, ['status', runId, '--role', view], temporal]);
      jobs.push([
        'cli diff',
        view,
        ['diff', runId, runId, '--json', '--role', view, '--policy', policy.path],
        temporal,
      ]);
      jobs.push(['cli runs', view, ['runs', '--tenant', 'acme', '--role', view, '--json'], temporal]);
      jobs.push([
        'cli export',
        view,
        ['export', runId, '--format', 'json', '--role', view, '--policy', policy.path],
        temporal,
      ]);
      for (const word of HIDDEN_FROM[view])
        jobs.push([
          'cli search',
          view,
          ['search', '--text', word, '--tenant', 'acme', '--role', view, '--policy', policy.path],
          stored,
        ]);
    }
    // The control: a word every view shows finds the run (a search that finds nothing proves nothing).
    jobs.push([
      'cli search control',
      'developer',
      ['search', '--text', o.controlWord ?? 'c-1', '--tenant', 'acme', '--policy', policy.path],
      stored,
    ]);
    jobs.push([
      'cli eval add',
      'auditor',
      ['eval', 'add', path.join(dir, 'door-cases.jsonl'), '--from-run', runId, '--policy', policy.path],
      temporal,
    ]);
    jobs.push(['cli watch', 'developer', ['watch', runId, '--policy', policy.path], temporal]);
    jobs.push(['cli tree', 'developer', ['tree', runId], temporal]);
    jobs.push(['cli fork', 'developer', ['fork', runId, '--at-step', String(o.forkStep ?? 4), '--dry-run'], temporal]);
    const next = [...jobs];
    const worker = async (): Promise<void> => {
      for (let job = next.shift(); job; job = next.shift()) {
        const [door, view, args, processEnv] = job;
        const { code, stdout, stderr } = await runCli(args, processEnv);
        const found = door.startsWith('cli search') && stdout.includes(runId) ? `found by ${args[2]}` : '';
        // The command line is left out: it names the word searched for.
        reads.add(door, view, `${found}\n(${args[0]} exit ${code})\n${stdout}\n${stderr}`);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
  }

  const close = async () => {
    await mcp?.close();
    await s?.close();
    await store?.close();
    hook?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `tl-${o.name}-`));
    policy = await writePolicy(dir, 'policy.yaml', o.policy);
    store = (await openChainStore({ kind: 'sqlite', file: path.join(dir, 'store.sqlite') }))!;
    hook = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const token = String(request.headers['x-a2a-notification-token']);
        pushed.set(token, [...(pushed.get(token) ?? []), body]);
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`;

    const model = o.model;
    // A2A reads its settings when the server is built: webhooks to this machine are allowed.
    process.env.THOUGHTLINE_A2A_PUSH_ALLOW = '127.0.0.1';
    try {
      s = await startServerHarness(env, {
        tools: o.tools,
        model,
        ...(o.guardrails ? { guardrails: o.guardrails } : {}),
        server: { store, policy, datasets: dir, extend: (app) => registerViewerRoute(app) },
      });
    } finally {
      delete process.env.THOUGHTLINE_A2A_PUSH_ALLOW;
    }
    mcp = await startMcpFront(s.h.agents, o.name, { policy });
    Object.assign(mcpAs, { dev: mcp.client, user: await mcp.connect('user'), auditor: await mcp.connect('auditor') });

    // Started as A2A starts a message's task (the caller from the identity), with the scripted model:
    // every door then reads it as it reads the runs it starts.
    const agent = mcp.ctx.catalog.get(GENERIC_AGENT)!;
    runId = a2aWorkflowId(DEV, agent.name, MESSAGE_ID);
    const input = protocolRunInput(mcp.ctx, DEV, agent, DOOR_TASK, { allowQuestions: true });
    await s.h.agents.start(
      { ...input, model: SCRIPTED_MODEL, requireThought: false, ...o.input },
      { workflowId: runId },
    );
    const live = await openLiveDoors(model, hookUrl);
    model.release();
    await s.h.agents.result(runId);
    await live();
    await eventually('each webhook to hear the run end', async () =>
      VIEWS.every((v) =>
        (pushed.get(`push-${READER[v]}`) ?? []).some((b) => b.includes('COMPLETED') || b.includes('FAILED')),
      )
        ? true
        : undefined,
    ).catch(() => undefined);

    // The store, as its projection writes an ended run (summary, timeline and search read it).
    const found = await readRunFromTemporal(s.h.agents, runId, 0, new ActionCounter());
    if (found.kind !== 'found') throw new Error(`the run is ${found.kind}`);
    await writeTemporalRun(store, found, await store.run(runId));

    await readEndedRun();
    await readCli();
  } catch (err) {
    await close();
    throw err;
  }
  return { s, mcp, runId, reads, close };
}
