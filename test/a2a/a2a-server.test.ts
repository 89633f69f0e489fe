import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, SendMessageRequest, Task } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { useTool } from '../../src/activities/models/scripted-model';
import { defineAgent } from '../../src/agents/define-agent';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { routedModel } from '../server/server-harness';
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

beforeAll(async () => {
  s = await startA2aHarness(env, { tools: testTools().tools, model, agents: [researcher] });
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
    model.script('tenant-gamma', [finish('gamma=1')]);
    const task = (await (await s.client('dev', 'researcher')).sendMessage(send(message('tenant-gamma: find')))) as Task;
    const rival = await s.client('rival', 'researcher');
    await expect(rival.getTask({ tenant: '', id: task.id })).rejects.toMatchObject({ name: 'TaskNotFoundError' });
    await expect(rival.getTask({ tenant: '', id: 'no-such-run' })).rejects.toMatchObject({ name: 'TaskNotFoundError' });

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
