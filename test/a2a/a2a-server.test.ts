import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, SendMessageRequest, Task } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { z } from 'zod';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { defineAgent } from '../../src/agents/define-agent';
import { defineTool } from '../../src/tools/define-tool';
import { writeFileTool } from '../helpers/approval-helpers';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { eventually, routedModel } from '../server/server-harness';
import { startA2aHarness, type A2aHarness } from './a2a-harness';

const env = useTestEnv();
const model = routedModel();
const researcher = defineAgent({
  id: 'researcher',
  description: 'Looks values up.',
  version: '1.2.0',
  systemPrompt: 'You are the research agent.',
  examples: [{ task: 'Find gamma', answer: 'gamma=50' }],
  tools: ['lookup'],
});
let s: A2aHarness;
const written: Array<Record<string, unknown>> = [];
/** A promise and its resolve, for a test to hold a tool until it says. */
function opened(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
/** A tool that waits until the test opens it: keeps a run working while a client comes and goes. */
let gate = opened();
let entered = opened();
const gateTool = defineTool({
  name: 'gate',
  description: 'Waits for the gate to open',
  input: z.object({}),
  retry: { maximumAttempts: 1 },
  timeoutMs: 60_000,
  execute: async () => {
    entered.resolve();
    await gate.promise;
    return 'the gate opened';
  },
});

beforeAll(async () => {
  s = await startA2aHarness(env, {
    tools: [...testTools().tools, writeFileTool(written), gateTool],
    model,
    agents: [researcher],
  });
});
afterAll(async () => s?.close());

const ROLE_USER = 1;
const STATE = { working: 2, completed: 3, failed: 4, canceled: 5, inputRequired: 6 } as const;

/** A user message as the SDK's types spell it. */
function message(text: string, extra: Partial<Message> = {}): Message {
  return {
    messageId: `m-${Math.random().toString(36).slice(2)}`,
    contextId: '',
    taskId: '',
    role: ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
    ...extra,
  };
}

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

const finish = (answer: string) => ({ content: [useTool('finish', { result: answer })] });
const textOf = (task: Task): string =>
  task.artifacts[0]?.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('') ?? '';

describe('agent cards', () => {
  it('serves a card per catalogue agent, public, with its skill, the JSON-RPC interface and the bearer scheme', async () => {
    const url = `${s.servers[0].url}/a2a/researcher/.well-known/agent-card.json`;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const card = (await response.json()) as Record<string, any>;
    expect(card).toMatchObject({
      name: 'researcher',
      description: 'Looks values up.',
      version: '1.2.0',
      capabilities: { streaming: true, pushNotifications: false },
      supportedInterfaces: [
        { url: `${s.servers[0].url}/a2a/researcher`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${s.servers[0].url}/a2a/researcher`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    });
    expect(card.skills[0]).toMatchObject({ id: 'researcher', tags: ['lookup'], examples: ['Find gamma'] });

    const generic = (await (await fetch(`${s.servers[0].url}/.well-known/agent-card.json`)).json()) as Record<
      string,
      any
    >;
    expect(generic.name).toBe('agent');
    expect(generic.supportedInterfaces[0].url).toBe(`${s.servers[0].url}/a2a/agent`);

    const unknown = await fetch(`${s.servers[0].url}/a2a/nobody/.well-known/agent-card.json`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error.message).toContain('researcher');
  });
});

describe('SendMessage and GetTask', () => {
  it('a blocking send runs the agent to completion: the answer as the artifact, cost and chain in its metadata', async () => {
    model.script('blocking-alpha', [finish('alpha=50')]);
    const client = await s.client('dev', 'researcher');
    const result = await client.sendMessage(send(message('blocking-alpha: find alpha')));
    const task = result as Task;
    expect(task.status?.state).toBe(STATE.completed);
    expect(textOf(task)).toBe('alpha=50');
    expect(task.id).toMatch(/^a2a-[0-9a-f]{64}$/);
    const meta = task.artifacts[0]!.metadata!.thoughtline;
    expect(meta).toMatchObject({ runId: task.id, chain: `/v1/runs/${task.id}/chain`, terminationReason: 'success' });
    expect(typeof meta.costUsd).toBe('number');
    expect(meta.usage).toHaveProperty('inputTokens');

    const again = await (await s.client('dev', 'researcher', s.servers[1])).getTask({ tenant: '', id: task.id });
    expect(again.status?.state).toBe(STATE.completed);
    expect(textOf(again)).toBe('alpha=50');
    expect(again.metadata?.thoughtline.runId).toBe(task.id);
    const { chain } = await s.agents.getHandle(task.id).result();
    expect(chain.agentName).toBe('researcher');
    expect(chain.caller).toMatchObject({ id: 'dev', tenant: 'acme' });
  });

  it('a resent message (same messageId) starts one run: the second send answers with the first run', async () => {
    const scripted = model.script('resend-beta', [finish('beta=7')]);
    const client = await s.client('dev', 'researcher');
    const msg = message('resend-beta: find beta');
    const first = (await client.sendMessage(send(msg))) as Task;
    const second = (await client.sendMessage(send(msg))) as Task;
    expect(second.id).toBe(first.id);
    expect(textOf(second)).toBe('beta=7');
    expect(scripted.calls).toHaveLength(1);
  });

  it('another tenant reads no task of this one (TaskNotFound), and no token is a 401', async () => {
    model.script('tenant-gamma', [finish('gamma=1'), finish('gamma=2')]);
    const task = (await (await s.client('dev', 'researcher')).sendMessage(send(message('tenant-gamma: find')))) as Task;
    const rival = await s.client('rival', 'researcher');
    await expect(rival.getTask({ tenant: '', id: task.id })).rejects.toMatchObject({ name: 'TaskNotFoundError' });
    await expect(rival.getTask({ tenant: '', id: 'no-such-run' })).rejects.toMatchObject({ name: 'TaskNotFoundError' });
    // A run started through /v1 (which may set what its views show) is no task, even for its starter.
    const viaApi = await fetch(`${s.servers[0].url}/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.tokens.dev}`, 'content-type': 'application/json' },
      body: JSON.stringify({ task: 'tenant-gamma: via the API', visibility: 'hidden' }),
    });
    const { runId } = (await viaApi.json()) as { runId: string };
    await expect((await s.client('dev', 'researcher')).getTask({ tenant: '', id: runId })).rejects.toMatchObject({
      name: 'TaskNotFoundError',
    });

    const anonymous = await s.client(undefined, 'researcher');
    await expect(anonymous.getTask({ tenant: '', id: task.id })).rejects.toThrow(/Authorization: Bearer/);
    const raw = await fetch(`${s.servers[0].url}/a2a/researcher`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: task.id } }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toContain('Bearer');
    expect(((await raw.json()) as any).error.data[0].reason).toBe('UNAUTHENTICATED');
  });
});

type Event = Awaited<
  ReturnType<ReturnType<Awaited<ReturnType<A2aHarness['client']>>['resubscribeTask']>['next']>
>['value'];

describe('streaming and resubscribe', () => {
  it('streams a task, survives a disconnect, and a resubscribe on another instance gets the rest through the final status', async () => {
    gate = opened();
    entered = opened();
    model.script('stream-delta', [{ content: [say('Waiting at the gate.'), useTool('gate', {})] }, finish('delta=4')]);
    const client = await s.client('dev', 'agent');
    const disconnect = new AbortController();
    const stream = client.sendMessageStream(send(message('stream-delta: wait, then answer')), {
      signal: disconnect.signal,
    });
    const first = await stream.next();
    expect(first.value?.payload?.$case).toBe('task');
    const taskId = (first.value!.payload!.value as Task).id;
    await entered.promise;
    disconnect.abort();
    await stream.return(undefined).catch(() => undefined);

    const other = await s.client('dev', 'agent', s.servers[1]);
    const events: Event[] = [];
    const resubscribed = other.resubscribeTask({ tenant: '', id: taskId });
    const head = await resubscribed.next();
    events.push(head.value);
    expect(head.value?.payload).toMatchObject({
      $case: 'task',
      value: { id: taskId, status: { state: STATE.working } },
    });
    gate.resolve();
    for await (const event of resubscribed) events.push(event);

    const last = events.at(-1)!.payload!;
    expect(last).toMatchObject({ $case: 'statusUpdate', value: { taskId, status: { state: STATE.completed } } });
    const artifact = events.find((e) => e?.payload?.$case === 'artifactUpdate')!.payload!.value as {
      artifact: Task['artifacts'][number];
    };
    expect(artifact.artifact.parts[0]!.content).toEqual({ $case: 'text', value: 'delta=4' });
    expect(artifact.artifact.metadata!.thoughtline.runId).toBe(taskId);
  });
});

describe('input-required and cancel', () => {
  it('an approval makes the task input-required, naming the tool and arguments; a follow-up "approve" decides it', async () => {
    model.script('approve-eps', [
      { content: [say('Writing the file.'), useTool('write_file', { path: '/srv/eps.yaml', text: 'eps: 1' })] },
      finish('written'),
    ]);
    const client = await s.client('dev', 'agent');
    const waiting = (await client.sendMessage(send(message('approve-eps: write the file')))) as Task;
    expect(waiting.status?.state).toBe(STATE.inputRequired);
    const parts = waiting.status!.message!.parts;
    expect(parts[0]!.content).toMatchObject({ $case: 'text', value: expect.stringContaining('write_file') });
    expect(parts[1]!.content).toMatchObject({
      $case: 'data',
      value: { kind: 'approval', toolName: 'write_file', arguments: { path: '/srv/eps.yaml', text: 'eps: 1' } },
    });
    expect(written).toHaveLength(0);

    const vague = client.sendMessage(send(message('maybe later', { taskId: waiting.id })));
    await expect(vague).rejects.toMatchObject({ name: 'RequestMalformedError' });

    const done = (await client.sendMessage(send(message('approve', { taskId: waiting.id })))) as Task;
    expect(done.status?.state).toBe(STATE.completed);
    expect(textOf(done)).toBe('written');
    expect(written).toEqual([{ path: '/srv/eps.yaml', text: 'eps: 1' }]);
    const { chain } = await s.agents.getHandle(waiting.id).result();
    expect(chain.approvals?.[0]).toMatchObject({ status: 'approved', decidedBy: { id: 'dev' } });

    const late = client.sendMessage(send(message('approve', { taskId: waiting.id })));
    await expect(late).rejects.toMatchObject({ name: 'UnsupportedOperationError' });
  });

  it('a question is answered by the follow-up message’s text', async () => {
    model.script('question-eta', [
      { content: [say('I need a city.'), useTool('ask_person', { question: 'Which city?' })] },
      { content: (request) => [useTool('finish', { result: JSON.stringify(request.messages.at(-1)) })] },
    ]);
    const client = await s.client('dev', 'agent');
    const asked = (await client.sendMessage(send(message('question-eta: weather')))) as Task;
    expect(asked.status?.state).toBe(STATE.inputRequired);
    expect(asked.status!.message!.parts[1]!.content).toMatchObject({
      value: { kind: 'question', question: 'Which city?' },
    });
    const answered = (await client.sendMessage(send(message('Lisbon', { taskId: asked.id })))) as Task;
    expect(answered.status?.state).toBe(STATE.completed);
    expect(textOf(answered)).toContain('Lisbon');
  });

  it('CancelTask cancels the run as the caller; a second cancel is TaskNotCancelable', async () => {
    model.script('cancel-zeta', [
      { content: [say('Writing zeta.'), useTool('write_file', { path: '/srv/zeta', text: 'z' })] },
    ]);
    const client = await s.client('dev', 'agent');
    const waiting = (await client.sendMessage(send(message('cancel-zeta: write')))) as Task;
    expect(waiting.status?.state).toBe(STATE.inputRequired);
    await expect(
      (await s.client('rival', 'agent')).cancelTask({ tenant: '', id: waiting.id, metadata: undefined }),
    ).rejects.toMatchObject({
      name: 'TaskNotFoundError',
    });
    const cancelled = await client.cancelTask({ tenant: '', id: waiting.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(STATE.canceled);
    await expect(client.cancelTask({ tenant: '', id: waiting.id, metadata: undefined })).rejects.toMatchObject({
      name: 'TaskNotCancelableError',
    });
    expect((await s.agents.getHandle(waiting.id).result()).terminationReason).toBe('cancelled');
  });
});

describe('contexts', () => {
  it('messages in one context are turns of one durable thread: the second run sees the first turn', async () => {
    // Scripted before the first: the second turn's run also carries the first turn's text, and the model routes by the first match.
    model.script('second-kappa', [
      { content: (request) => [useTool('finish', { result: JSON.stringify(request.messages[0]) })] },
    ]);
    model.script('first-iota', [finish('noted')]);
    const client = await s.client('dev', 'agent');
    const contextId = `conversation-${Math.random().toString(36).slice(2)}`;
    const first = (await client.sendMessage(send(message('first-iota: my name is Ana', { contextId })))) as Task;
    expect(first).toMatchObject({ contextId, status: { state: STATE.completed } });
    expect(first.id).toMatch(/^thread-[0-9a-f]{32}-turn-1$/);

    const second = (await client.sendMessage(send(message('second-kappa: what is my name?', { contextId })))) as Task;
    expect(second).toMatchObject({ contextId, status: { state: STATE.completed } });
    expect(textOf(second)).toContain('my name is Ana');
    const read = await (await s.client('dev', 'agent', s.servers[1])).getTask({ tenant: '', id: second.id });
    expect(read.contextId).toBe(contextId);
  });
});

describe('push notifications', () => {
  it('delivers the task’s updates to an allow-listed webhook with its token; other hosts and servers without the allow-list refuse', async () => {
    const received: Array<{ token: string | undefined; body: any }> = [];
    const hook = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push({
          token: request.headers['x-a2a-notification-token'] as string | undefined,
          body: JSON.parse(body),
        });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const port = (hook.address() as { port: number }).port;
    try {
      model.script('push-lambda', [finish('lambda=11')]);
      const client = await s.client('dev', 'agent', s.servers[1]);
      const config = {
        tenant: '',
        id: '',
        taskId: '',
        url: `http://127.0.0.1:${port}/hook`,
        token: 'hook-token',
        authentication: undefined,
      };
      const started = (await client.sendMessage(
        send(message('push-lambda: compute'), { returnImmediately: true, taskPushNotificationConfig: config }),
      )) as Task;
      await eventually('the completed status at the webhook', async () =>
        received.find((r) => r.body.statusUpdate?.status?.state === 'TASK_STATE_COMPLETED'),
      );
      expect(received[0]!.body.task.id).toBe(started.id);
      expect(received.every((r) => r.token === 'hook-token')).toBe(true);
      expect(received.find((r) => r.body.artifactUpdate)?.body.artifactUpdate.artifact.parts[0].text).toBe('lambda=11');

      const elsewhere = { ...config, url: 'https://example.com/hook' };
      await expect(client.createTaskPushNotificationConfig({ ...elsewhere, taskId: started.id })).rejects.toMatchObject(
        { name: 'RequestMalformedError', message: expect.stringContaining('allow-list') },
      );
      // The first server has no allow-list: its card says so (the SDK's client then refuses itself), and so does the server.
      const off = await fetch(`${s.servers[0].url}/a2a/agent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${s.tokens.dev}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'CreateTaskPushNotificationConfig',
          params: { taskId: started.id, url: config.url },
        }),
      });
      expect(((await off.json()) as any).error).toMatchObject({
        code: -32003,
        message: expect.stringContaining('THOUGHTLINE_A2A_PUSH_ALLOW'),
      });
      const card = (await (await fetch(`${s.servers[1].url}/.well-known/agent-card.json`)).json()) as any;
      expect(card.capabilities.pushNotifications).toBe(true);
    } finally {
      hook.close();
    }
  });
});
