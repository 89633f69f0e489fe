import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Message, SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk' with {
  'resolution-mode': 'import',
};
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ReadResourceResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { say, useTool } from '../../src/activities/models/scripted-model';
import type { LoadedPolicy } from '../../src/governance';
import { TASK_STATE } from '../../src/server/a2a/tasks/task-of-snapshot';
import { defineTool } from '../../src/tools/define-tool';
import { startA2aHarness, type A2aHarness } from '../a2a/a2a-harness';
import { startMcpFront, type McpFront } from '../doors/mcp-front';
import {
  ACCOUNT,
  EMAIL,
  SENSITIVE_ANSWER,
  sensitiveTools,
  sensitiveTurns,
  showsSensitive,
  TENANT_MASKS_EMAIL,
} from '../helpers/sensitive-answer-run';
import { cliEnv, spawnCli } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';
import { writePolicy } from '../server/policy-fixture';
import { eventually, routedModel, writeTokenFile, type Person } from '../server/server-harness';
import { a2aTextMessage } from '../helpers/a2a-message';

/**
 * Issue 63, items 1 and 5: a run whose answer repeats a value a tool marks sensitive and one the
 * tenant's policy masks. Every protocol door shows it as the chain's views do: the auditor sees
 * both, the developer and the end user neither (A2A tasks in v1.0 and v0.3, streams, context
 * turns, push notifications per subscriber; MCP tool results, get_run, resources/read).
 */
const env = useTestEnv();
const model = routedModel();
let s: A2aHarness;
let policy: LoadedPolicy;
let dir: string;
const fronts: McpFront[] = [];

/** Holds a run at its call until the test opens it: subscribers join while it works. */
let open!: () => void;
let entered!: () => void;
const gate = new Promise<void>((resolve) => (open = resolve));
const inGate = new Promise<void>((resolve) => (entered = resolve));
const gateTool = defineTool({
  name: 'gate',
  description: 'Waits for the test',
  input: z.object({}),
  retry: { maximumAttempts: 1 },
  timeoutMs: 60_000,
  execute: async () => {
    entered();
    await gate;
    return 'open';
  },
});

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-protocol-sensitive-'));
  policy = await writePolicy(dir, 'policy.yaml', TENANT_MASKS_EMAIL);
  s = await startA2aHarness(env, { tools: [...sensitiveTools(), gateTool], model, agents: [], policy });
}, 60_000);

afterAll(async () => {
  for (const front of fronts) await front.close();
  await s?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const message = a2aTextMessage;

const send = (msg: Message, configuration: Partial<SendMessageRequest['configuration']> = {}): SendMessageRequest => ({
  tenant: '',
  message: msg,
  configuration: {
    acceptedOutputModes: [],
    taskPushNotificationConfig: undefined,
    returnImmediately: false,
    ...configuration,
  },
  metadata: undefined,
});

const artifactText = (task: Task): string =>
  task.artifacts[0]?.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('') ?? '';

/** JSON-RPC straight to the endpoint: `version` null speaks v0.3 (no A2A-Version header). */
async function rpc(who: Person, body: unknown, version: string | null): Promise<any> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${s.tokens[who]}`,
    'content-type': 'application/json',
  };
  if (version) headers['a2a-version'] = version;
  const response = await fetch(`${s.servers[0].url}/a2a/agent`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  return response.json();
}

async function mcpAs(who: Person): Promise<McpFront> {
  const front = await startMcpFront(s.agents, `sensitive-${who}`, { policy, who });
  fronts.push(front);
  return front;
}

describe('A2A shows a run with sensitive values as the chain views do', () => {
  let taskId: string;

  it('SendMessage, GetTask (v1.0 and v0.3): neither value for the end user and the developer, both for the auditor', async () => {
    model.script('sens-a2a', sensitiveTurns());
    const user = await s.client('user', 'agent');
    const task = (await user.sendMessage(send(message('sens-a2a: whose account is it?')))) as Task;
    taskId = task.id;
    expect(task.status?.state).toBe(TASK_STATE.completed);
    expect(artifactText(task)).toContain('belongs to');
    expect(showsSensitive(task)).toBe(false);

    for (const who of ['user', 'dev'] as const) {
      const read = await (await s.client(who, 'agent')).getTask({ tenant: '', id: taskId, historyLength: 10 });
      expect(artifactText(read), who).toContain('belongs to');
      expect(showsSensitive(read), who).toBe(false);
      const legacy = await rpc(who, { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: taskId } }, null);
      expect(legacy.result?.id, who).toBe(taskId);
      expect(showsSensitive(legacy), who).toBe(false);
    }
    // The auditor's view shows both: the values are there to hide.
    const audited = await (await s.client('auditor', 'agent')).getTask({ tenant: '', id: taskId });
    expect(artifactText(audited)).toBe(SENSITIVE_ANSWER);
    const legacy = await rpc('auditor', { jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { id: taskId } }, null);
    expect(JSON.stringify(legacy)).toContain(EMAIL);
  });

  it('SendStreamingMessage: no event shows a value to the end user', async () => {
    model.script('sens-stream', sensitiveTurns());
    const user = await s.client('user', 'agent');
    const events: StreamResponse[] = [];
    for await (const event of user.sendMessageStream(send(message('sens-stream: whose account?'))))
      events.push(event as StreamResponse);
    expect(events.some((e) => e.payload?.$case === 'artifactUpdate')).toBe(true);
    expect(showsSensitive(events)).toBe(false);
  });

  it("a context: the next turn's model is given the earlier answer as the chain's views show it, never the raw value", async () => {
    // The second turn's messages name the first turn too: its script is found first.
    const next = model.script('sens-turn-2', [{ content: [useTool('finish', { result: 'Noted.' })] }]);
    model.script('sens-turn-1', sensitiveTurns(`Account ${ACCOUNT} is current.`));
    const contextId = `ctx-${randomUUID()}`;
    const user = await s.client('user', 'agent');
    const first = (await user.sendMessage(send(message('sens-turn-1: the account?', { contextId })))) as Task;
    expect(first.status?.state).toBe(TASK_STATE.completed);
    expect(showsSensitive(first)).toBe(false);
    const second = (await user.sendMessage(send(message('sens-turn-2: and then?', { contextId })))) as Task;
    expect(second.status?.state).toBe(TASK_STATE.completed);
    expect(second.contextId).toBe(contextId);
    // The earlier turn reached the model (its user text), its answer without the value.
    const given = JSON.stringify(next.calls[0]);
    expect(given).toContain('sens-turn-1: the account?');
    expect(given).toContain('is current');
    expect(given).not.toContain(ACCOUNT);
    // And the later turn's chain, which records its context, shows none of it either.
    const chain = await fetch(`${s.servers[0].url}/v1/runs/${second.id}/chain`, {
      headers: { authorization: `Bearer ${s.tokens.dev}` },
    });
    expect(chain.status).toBe(200);
    expect(JSON.stringify(await chain.json())).not.toContain(ACCOUNT);
  });
});

describe('A2A push: each subscriber gets its own view', () => {
  it('an auditor and an end user subscribed to one task: the auditor sees the values, the end user never', async () => {
    const received: Record<'auditor' | 'user', any[]> = { auditor: [], user: [] };
    const hook = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const who = request.url === '/auditor' ? 'auditor' : 'user';
        received[who].push(JSON.parse(body));
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const port = (hook.address() as { port: number }).port;
    try {
      model.script('sens-push', [{ content: [say('Waiting first.'), useTool('gate', {})] }, ...sensitiveTurns()]);
      const user = await s.client('user', 'agent', s.servers[1]);
      const auditor = await s.client('auditor', 'agent', s.servers[1]);
      const started = (await user.sendMessage(
        send(message('sens-push: whose account?'), { returnImmediately: true }),
      )) as Task;
      await inGate;
      const config = (who: string) => ({
        tenant: '',
        id: `hook-${who}`,
        taskId: started.id,
        url: `http://127.0.0.1:${port}/${who}`,
        token: '',
        authentication: undefined,
      });
      // The auditor subscribes first: a later subscriber must not get the first one's view.
      await auditor.createTaskPushNotificationConfig(config('auditor'));
      await user.createTaskPushNotificationConfig(config('user'));
      open();
      const completed = (bodies: any[]) => bodies.find((b) => b.statusUpdate?.status?.state === 'TASK_STATE_COMPLETED');
      await eventually('the end at both webhooks', async () =>
        completed(received.auditor) && completed(received.user) ? true : undefined,
      );
      const artifact = (bodies: any[]) => bodies.find((b) => b.artifactUpdate);
      expect(JSON.stringify(artifact(received.auditor))).toContain(ACCOUNT);
      expect(JSON.stringify(artifact(received.auditor))).toContain(EMAIL);
      expect(artifact(received.user)).toBeDefined();
      expect(showsSensitive(received.user)).toBe(false);
    } finally {
      open();
      hook.close();
    }
  });
});

describe('MCP shows a run with sensitive values as the chain views do', () => {
  it('the tool result, get_run and resources/read: neither value below the auditor; the auditor sees both', async () => {
    model.script('sens-mcp', sensitiveTurns());
    const user = await mcpAs('user');
    const result = await user.client.callTool(
      { name: 'agent', arguments: { task: 'sens-mcp: whose account?' } },
      CallToolResultSchema,
      { timeout: 60_000 },
    );
    const runId = (result.structuredContent as { runId: string }).runId;
    expect(JSON.stringify(result.content)).toContain('belongs to');
    expect(showsSensitive(result)).toBe(false);
    for (const who of ['user', 'dev'] as const) {
      const front = who === 'user' ? user : await mcpAs('dev');
      const got = await front.client.callTool({ name: 'get_run', arguments: { runId } }, CallToolResultSchema);
      expect(JSON.stringify(got.content), who).toContain('belongs to');
      expect(showsSensitive(got), who).toBe(false);
      const resource = await front.client.request(
        { method: 'resources/read', params: { uri: `thoughtline://runs/${runId}` } },
        ReadResourceResultSchema,
      );
      expect(JSON.stringify(resource), who).toContain('belongs to');
      expect(showsSensitive(resource), who).toBe(false);
    }
    const auditor = await mcpAs('auditor');
    const audited = await auditor.client.callTool({ name: 'get_run', arguments: { runId } }, CallToolResultSchema);
    expect(JSON.stringify(audited.content)).toContain(ACCOUNT);
    expect(JSON.stringify(audited.content)).toContain(EMAIL);
  });
});

describe("MCP shows a run waiting for approval in the caller's lens", () => {
  it("how to decide and get_run show a pending call's tenant-masked argument to no one below the auditor", async () => {
    model.script('sens-approve', [
      { content: [say('Mailing the customer.'), useTool('email_customer', { to: EMAIL, text: 'hello' })] },
    ]);
    const dev = await mcpAs('dev');
    // A client that cannot elicit is told at once what the run waits for and how to decide.
    const waiting = await dev.client.callTool(
      { name: 'agent', arguments: { task: 'sens-approve: mail the customer' } },
      CallToolResultSchema,
      { timeout: 60_000 },
    );
    expect(waiting.structuredContent).toMatchObject({ state: 'waiting' });
    const text = JSON.stringify(waiting.content);
    expect(text).toContain('email_customer');
    expect(text).not.toContain(EMAIL);
    const runId = /thoughtline approve (\S+) /.exec(text)![1]!;
    const got = await dev.client.callTool({ name: 'get_run', arguments: { runId } }, CallToolResultSchema);
    expect(JSON.stringify(got)).not.toContain(EMAIL);
    await s.agents.getHandle(runId).cancel();
  });
});

describe('thoughtline mcp-server --policy', () => {
  it("applies the policy serve applies: the tenant's masked field is hidden below the auditor", async () => {
    model.script('sens-cli', sensitiveTurns());
    const user = await s.client('user', 'agent');
    const task = (await user.sendMessage(send(message('sens-cli: whose account?')))) as Task;
    expect(task.status?.state).toBe(TASK_STATE.completed);
    const { file, tokens } = writeTokenFile(dir);
    const server = spawnCli(
      ['mcp-server', '--http', '0', '--tokens', file, '--policy', policy.path],
      cliEnv({ THOUGHTLINE_TASK_QUEUE: `sens-cli-${randomUUID()}` }),
    );
    const clients: Client[] = [];
    try {
      await server.waitFor(/MCP server at (http:\/\/\S+\/mcp)/, 30_000);
      expect(server.output()).toContain(`applying the visibility policy ${policy.path}`);
      const url = /MCP server at (http:\/\/\S+\/mcp)/.exec(server.output())![1]!;
      const read = async (who: Person) => {
        const client = new Client({ name: `cli-${who}`, version: '1.0.0' });
        clients.push(client);
        const headers = { authorization: `Bearer ${tokens[who]}` };
        await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
        return client.callTool({ name: 'get_run', arguments: { runId: task.id } }, CallToolResultSchema);
      };
      const dev = await read('dev');
      expect(JSON.stringify(dev.content)).toContain('belongs to');
      expect(JSON.stringify(dev)).not.toContain(EMAIL);
      expect(JSON.stringify(dev)).not.toContain(ACCOUNT);
      expect(JSON.stringify((await read('auditor')).content)).toContain(EMAIL);
    } finally {
      for (const client of clients) await client.close().catch(() => undefined);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });
});
