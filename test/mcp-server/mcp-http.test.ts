import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { MAX_BODY_BYTES } from '../../src/mcp-server/mcp-limits';
import { decideCall } from '../../src/server/protocols/run-actions';
import type { ModelProvider } from '../../src/activities';
import { writeFileTool } from '../helpers/approval-helpers';
import { taskOf } from '../helpers/people-helpers';
import { useTestEnv } from '../helpers/temporal-env';
import { eventually, routedModel } from '../server/server-harness';
import { startMcpHarness, type McpHarness } from './mcp-harness';

const env = useTestEnv();
const model = routedModel();
const ran: Array<Record<string, unknown>> = [];
const deployer = {
  id: 'deployer',
  description: 'Deploys configuration files.',
  version: '1.0.0',
  systemPrompt: 'You deploy configuration.',
  tools: ['deploy_config'],
};
let s: McpHarness;
/** Opened by the client's first progress notification (the run has been followed from then on). */
const followed: { promise: Promise<void>; resolve(): void } = deferred();
/** The routed model, except that an `mcp-approve` run's first call waits until the client follows it. */
const provider: ModelProvider = {
  name: 'scripted',
  async complete(request, signal, hooks) {
    if (taskOf(request).includes('mcp-approve') && request.messages.length === 1) await followed.promise;
    return model.complete(request, signal, hooks);
  },
};

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

beforeAll(async () => {
  s = await startMcpHarness(env, {
    tools: [writeFileTool(ran, { name: 'deploy_config' })],
    model: provider,
    agents: [deployer],
  });
});
afterAll(async () => s?.close());

/** A run that asks to deploy (an approval), then finishes with `answer`. */
function scriptDeploy(key: string, answer: string): void {
  model.script(key, [
    { content: [say('Deploying.'), useTool('deploy_config', { path: `/srv/${key}.yaml`, text: 'replicas: 3' })] },
    { content: [useTool('finish', { result: answer })] },
  ]);
}

const textOf = (result: object): string =>
  (((result as { content?: unknown }).content as Array<{ type: string; text?: string }>) ?? [])
    .map((c) => c.text ?? '')
    .join('');

describe('mcp-server over Streamable HTTP', () => {
  it('lists one tool per catalogue agent, with get_run', async () => {
    const client = await s.connect('dev');
    // The newest revision the registry's SDK speaks (1.x and 2.x alike, November 2026).
    expect((client.transport as StreamableHTTPClientTransport).protocolVersion).toBe('2025-11-25');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['agent', 'deployer', 'get_run']);
    expect(tools[1]).toMatchObject({
      description: 'Deploys configuration files.',
      inputSchema: { required: ['task'] },
      execution: { taskSupport: 'optional' },
    });
  });

  it('runs an agent: the approval arrives as an elicitation, progress as steps land, the answer at the end', async () => {
    scriptDeploy('mcp-approve', 'deployed 3 replicas');
    const client = await s.connect('dev', { elicitation: true });
    const asked: Array<{ message: string }> = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push({ message: request.params.message });
      return { action: 'accept', content: { decision: 'approve' } };
    });
    const progress: Progress[] = [];
    const result = await client.callTool(
      { name: 'deployer', arguments: { task: 'mcp-approve: deploy the config' } },
      CallToolResultSchema,
      {
        onprogress: (p) => {
          progress.push(p);
          // The steps from here on are each a notification: the run's first step waits for this
          // (steps that landed before the follower joined are the chain's, not the progress's).
          followed.resolve();
        },
        timeout: 60_000,
      },
    );
    expect(textOf(result)).toBe('deployed 3 replicas');
    const runId = (result.structuredContent as { runId: string }).runId;
    expect(result.structuredContent).toMatchObject({
      runId,
      success: true,
      terminationReason: 'success',
      chain: `/v1/runs/${runId}/chain`,
    });
    expect(result.isError).toBeUndefined();
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toContain('deploy_config');
    expect(asked[0]!.message).toContain('/srv/mcp-approve.yaml');
    expect(ran).toContainEqual({ path: '/srv/mcp-approve.yaml', text: 'replicas: 3' });
    // The first names the run; steps follow, in order.
    expect(progress[0]!.message).toContain(runId);
    expect(progress.map((p) => p.message)).toContainEqual(expect.stringMatching(/step \d+: tool_call deploy_config/));
    expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));
  });

  it('refuses a request without a token (401, Bearer) and bad arguments as an error result', async () => {
    const response = await fetch(s.http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32001);

    const client = await s.connect('dev');
    const empty = await client.callTool({ name: 'deployer', arguments: { task: '' } });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toContain('task must not be empty');
    const extra = await client.callTool({ name: 'deployer', arguments: { task: 'x', model: 'other' } });
    expect(extra.isError).toBe(true);
    await expect(
      client.request(
        { method: 'tools/call', params: { name: 'deployer', arguments: { task: '' }, task: {} } },
        CreateTaskResultSchema,
      ),
    ).rejects.toThrow(/task must not be empty/);
    const unknown = await client.callTool({ name: 'nobody', arguments: { task: 'x' } });
    expect(textOf(unknown)).toContain('the tools are agent, deployer, get_run');
  });

  it('a question arrives as an elicitation and the answer reaches the run', async () => {
    model.script('mcp-question', [
      { content: [say('I need a city.'), useTool('ask_person', { question: 'Which city?' }, 'toolu_mq1')] },
      {
        content: (request) => [
          useTool('finish', { result: `heard ${JSON.stringify(request.messages.at(-1)).includes('Lyon')}` }),
        ],
      },
    ]);
    const client = await s.connect('dev', { elicitation: true });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { answer: 'Lyon' } };
    });
    const result = await client.callTool(
      { name: 'agent', arguments: { task: 'mcp-question: weather' } },
      CallToolResultSchema,
      {
        timeout: 60_000,
      },
    );
    expect(asked).toEqual([expect.stringContaining('asks: Which city?')]);
    expect(textOf(result)).toBe('heard true');
  });

  it('a client that cannot elicit is told at once how to decide, with the run id', async () => {
    scriptDeploy('mcp-noelicit', 'unused');
    const client = await s.connect('dev');
    const result = await client.callTool(
      { name: 'deployer', arguments: { task: 'mcp-noelicit: deploy' } },
      CallToolResultSchema,
      {
        timeout: 60_000,
      },
    );
    const { runId } = result.structuredContent as { runId: string };
    expect(result.structuredContent).toMatchObject({ runId, state: 'waiting' });
    expect(textOf(result)).toContain(`thoughtline approve ${runId} `);
    expect(textOf(result)).toContain('get_run');
    await s.ctx.agents.getHandle(runId).terminate('test over');
  });

  it("refuses an oversized body (413) and another person's session (404), in JSON-RPC words", async () => {
    const big = await fetch(s.http.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.tokens.dev}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(MAX_BODY_BYTES) } }),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: number } }).error.code).toBe(-32600);
    const client = await s.connect('dev');
    const sessionId = (client.transport as { sessionId?: string }).sessionId!;
    const stolen = await fetch(s.http.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${s.tokens.rival}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
    });
    expect(stolen.status).toBe(404);
  });

  it('a client that disconnects mid-run fetches the result later by run id; another tenant cannot', async () => {
    scriptDeploy('mcp-later', 'deployed later');
    const first = await s.connect('dev', { elicitation: true });
    const runIds: string[] = [];
    first.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
      runIds.push((n.params.data as { runId: string }).runId);
    });
    // The person walks away at the approval: the connection closes, the call never returns.
    first.setRequestHandler(ElicitRequestSchema, async () => {
      void first.close();
      return new Promise<never>(() => {});
    });
    const call = first.callTool({ name: 'deployer', arguments: { task: 'mcp-later: deploy' } }, CallToolResultSchema, {
      timeout: 60_000,
    });
    await expect(call).rejects.toThrow();
    const runId = runIds[0]!;
    expect(runId).toBeTruthy();

    const later = await s.connect('dev');
    const waiting = await later.callTool({ name: 'get_run', arguments: { runId } });
    expect(waiting.structuredContent).toMatchObject({
      runId,
      state: 'running',
      pendingApprovals: [{ toolName: 'deploy_config' }],
    });
    const rival = await s.connect('rival');
    const hidden = await rival.callTool({ name: 'get_run', arguments: { runId } });
    expect(hidden.isError).toBe(true);
    expect(textOf(hidden)).toContain('No run with this id is visible to you');

    // Decided elsewhere (thoughtline approve, the API): the answer is there for whoever comes back.
    const record = (waiting.structuredContent as { pendingApprovals: Array<{ callId: string }> }).pendingApprovals[0]!;
    const status = await s.ctx.agents.status(runId);
    await decideCall(s.ctx, { id: 'dev', roles: ['developer'], tenant: 'acme', via: 'token' }, runId, record.callId, {
      approved: true,
      argumentsHash: status.pendingApprovals[0]!.argumentsHash,
    });
    const done = await eventually('the run to end', async () => {
      const r = await later.callTool({ name: 'get_run', arguments: { runId } });
      return textOf(r) === 'deployed later' ? r : undefined;
    });
    expect(done.structuredContent).toMatchObject({ runId, terminationReason: 'success' });
    const resource = await later.readResource({ uri: `thoughtline://runs/${runId}` });
    expect(JSON.parse((resource.contents[0] as { text: string }).text)).toMatchObject({
      text: 'deployed later',
      runId,
    });
  });

  it('a task-augmented call returns a task handle; tasks/get and tasks/result follow the run to its answer', async () => {
    model.script('mcp-task', [{ content: [useTool('finish', { result: 'task done' })] }]);
    const client = await s.connect('dev');
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'deployer', arguments: { task: 'mcp-task: report' }, task: { ttl: 60_000 } },
      },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    expect(created.task.status).toBe('working');
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, { timeout: 60_000 });
    expect(textOf(result)).toBe('task done');
    expect(result.structuredContent).toMatchObject({ runId: taskId, success: true });
    const task = await client.experimental.tasks.getTask(taskId);
    expect(task).toMatchObject({ taskId, status: 'completed', ttl: null });
    const { tasks } = await client.experimental.tasks.listTasks();
    expect(tasks.map((t) => t.taskId)).toContain(taskId);
    const rival = await s.connect('rival');
    await expect(rival.experimental.tasks.getTask(taskId)).rejects.toThrow(/not found/i);
  });
  it('a task waiting for a decision reads input_required, and tasks/cancel stops its run', async () => {
    scriptDeploy('mcp-cancel', 'unused');
    const client = await s.connect('dev');
    const created = await client.request(
      { method: 'tools/call', params: { name: 'deployer', arguments: { task: 'mcp-cancel: deploy' }, task: {} } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    const waiting = await eventually('the task to wait for input', async () => {
      const task = await client.experimental.tasks.getTask(taskId);
      return task.status === 'input_required' ? task : undefined;
    });
    expect(waiting.statusMessage).toContain('deploy_config');
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe('cancelled');
    const result = await s.ctx.agents.result(taskId);
    expect(result.terminationReason).toBe('cancelled');
  });
  it('tasks/result puts a waiting approval to the client and returns the answer once approved', async () => {
    scriptDeploy('mcp-elicit-task', 'deployed as a task');
    const client = await s.connect('dev', { elicitation: true });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { decision: 'approve' } };
    });
    const created = await client.request(
      { method: 'tools/call', params: { name: 'deployer', arguments: { task: 'mcp-elicit-task: deploy' }, task: {} } },
      CreateTaskResultSchema,
    );
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema, {
      timeout: 60_000,
    });
    expect(asked).toEqual([expect.stringContaining('deploy_config')]);
    expect(textOf(result)).toBe('deployed as a task');
  });
});
