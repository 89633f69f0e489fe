import { randomUUID } from 'node:crypto';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScriptedModel, useTool } from '../../src/activities/models/scripted-model';
import type { ReasoningStep } from '../../src/domain';
import { createAgentWorker } from '../../src/worker';
import { scheduledActivities } from '../helpers/history';
import { waitFor } from '../helpers/people-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { createHarness, useTestEnv } from '../helpers/temporal-env';
import { EVERYTHING_SERVER } from './mcp-test-servers';
import { startTaskServer, type TaskServer } from './task-server';

const env = useTestEnv();
const EventType = temporal.api.enums.v1.EventType;

const results = (steps: readonly ReasoningStep[]) =>
  steps.flatMap((s) => (s.type === 'tool_result' ? [s.toolResult] : []));

/** The task ids the run's pollMcpTask activities asked about, in order. */
async function polledTaskIds(workflowId: string): Promise<string[]> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const converter = env.client.options.loadedDataConverter.payloadConverter;
  return (history.events ?? []).flatMap((e) => {
    const a = e.activityTaskScheduledEventAttributes;
    if (a?.activityType?.name !== 'pollMcpTask') return [];
    return [converter.fromPayload<string>(a.input!.payloads![1]!)];
  });
}

async function timersStarted(workflowId: string): Promise<number> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).filter((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED).length;
}

async function pendingActivities(workflowId: string): Promise<number> {
  const description = await env.client.workflow.getHandle(workflowId).describe();
  return description.raw.pendingActivities?.length ?? 0;
}

// The cases run side by side (their runs wait on doubling poll timers); the one that releases every
// task and counts the server's tasks and sessions has a task server of its own.
describe.concurrent('a run whose MCP server answers with tasks', () => {
  let shared: TaskServer;
  const own: TaskServer[] = [];
  beforeAll(async () => {
    shared = await startTaskServer();
  }, 30_000);
  afterAll(async () => {
    await Promise.all([shared, ...own].map((s) => s?.stop()));
  });

  const config = (server = shared) => ({ mcpServers: { reports: { url: server.url } } });

  it('parks on the task with no activity open, polls tasks/get on timers, and takes the result; a worker restart polls the same task', async () => {
    const server = await startTaskServer();
    own.push(server);
    const model = createScriptedModel([
      { content: [useTool('reports__slow_report', { topic: 'sales', ms: -1 }, 'toolu_report')] },
      { content: [useTool('finish', { result: 'Sales are good.' })] },
    ]);
    const first = await createHarness(env, { tools: [], models: { scripted: model }, mcp: config(server) });
    const workflowId = `mcp-task-${randomUUID()}`;
    const before = await server.stats();
    await first.worker.runUntil(async () => {
      await first.agents.start(
        { model: SCRIPTED_MODEL, task: 'Report on sales', tools: ['reports__slow_report'] },
        { workflowId },
      );
      // Parked: at least two polls, each after its own timer. The worker stops once the second poll
      // is done and the run waits on its next (4 s) timer: stopping it mid-poll would leave that
      // poll open for the next worker to retry.
      await waitFor(
        'two polls done',
        async () => (await polledTaskIds(workflowId)).length >= 2 && (await pendingActivities(workflowId)) === 0,
        60_000,
      );
    });
    // Between polls the run holds nothing: no activity is open while it waits on its timer.
    expect(await pendingActivities(workflowId)).toBe(0);
    const second = await createAgentWorker({
      connection: env.nativeConnection,
      namespace: inject('temporalNamespace'),
      taskQueue: first.taskQueue,
      tools: [],
      models: { scripted: model },
      mcp: config(server),
      workflowBundle: { codePath: inject('workflowBundlePath') },
      workerOptions: { maxCachedWorkflows: 0 },
    });
    const result = await second.runUntil(async () => {
      const polled = (await polledTaskIds(workflowId)).length;
      // The new worker dials a new session and polls the task the first one parked on.
      await waitFor(
        'a poll from the new worker',
        async () => (await polledTaskIds(workflowId)).length > polled,
        60_000,
      );
      await server.release();
      return first.agents.result(workflowId);
    });
    model.verify();
    expect(result.terminationReason).toBe('success');
    const report = results(result.chain.steps).find((r) => r.correlationId === 'toolu_report');
    expect(report).toMatchObject({ success: true, result: 'Report on sales: all good.' });
    const after = await server.stats();
    expect(after.created - before.created).toBe(1);
    expect(after.sessions - before.sessions).toBeGreaterThanOrEqual(2);
    const ids = await polledTaskIds(workflowId);
    expect(new Set(ids).size).toBe(1);
    expect(after.released).toContain(ids[0]);
    // One tools/call, then only short polls: each after a timer.
    const types = (await scheduledActivities(env.client, workflowId)).map((a) => a.type);
    expect(types.filter((t) => t === 'runTool')).toHaveLength(1);
    expect(await timersStarted(workflowId)).toBeGreaterThanOrEqual(ids.length);
  }, 180_000);

  it("gives the run's result a long task result whole: it is in a poll's result, not runTool's", async () => {
    const model = createScriptedModel([
      { content: [useTool('reports__slow_report', { topic: 'tax', ms: 300, pad: 3_000 }, 'toolu_tax')] },
      { content: [useTool('finish', { result: 'done' })] },
    ]);
    const h = await createHarness(env, { tools: [], models: { scripted: model }, mcp: config() });
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ model: SCRIPTED_MODEL, task: 'Tax', tools: ['reports__slow_report'] });
      return handle.result();
    });
    const tax = results(result.chain.steps).find((r) => r.correlationId === 'toolu_tax');
    expect(tax?.result).toBe(`Report on tax: all good. ${'x'.repeat(3_000)}`);
  }, 120_000);

  it('cancels the task on the server when the run is cancelled', async () => {
    const model = createScriptedModel([
      { content: [useTool('reports__slow_report', { topic: 'costs', ms: -1 }, 'toolu_costs')] },
    ]);
    const h = await createHarness(env, { tools: [], models: { scripted: model }, mcp: config() });
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ model: SCRIPTED_MODEL, task: 'Costs', tools: ['reports__slow_report'] });
      await waitFor('a poll', async () => (await polledTaskIds(handle.workflowId)).length >= 1, 60_000);
      await env.client.workflow.getHandle(handle.workflowId).cancel();
      const [taskId] = await polledTaskIds(handle.workflowId);
      await waitFor('the task cancelled', async () => (await shared.stats()).cancelled.includes(taskId!), 60_000);
      return h.agents.result(handle.workflowId).catch((err: unknown) => err);
    });
    expect(JSON.stringify(result)).toMatch(/cancel/i);
  }, 180_000);

  it("asks a person the question a task's input_required carries, and the task answered goes on to its result", async () => {
    const model = createScriptedModel([
      { content: [useTool('reports__ask_report', { topic: 'hiring' }, 'toolu_ask')] },
      { content: [useTool('finish', { result: 'done' })] },
    ]);
    const h = await createHarness(env, { tools: [], models: { scripted: model }, mcp: config() });
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ model: SCRIPTED_MODEL, task: 'Hiring', tools: ['reports__ask_report'] });
      const question = await waitFor(
        'the question',
        async () => (await h.agents.status(handle.workflowId)).openQuestion,
        60_000,
      );
      expect(question.question).toContain('Who is the report on hiring for?');
      await h.agents.answer(handle.workflowId, 'the board', 'ana');
      return handle.result();
    });
    model.verify();
    expect(result.terminationReason).toBe('success');
    const asked = results(result.chain.steps).find((r) => r.correlationId === 'toolu_ask');
    expect(asked).toMatchObject({ success: true, result: 'Report on hiring for the board.' });
  }, 180_000);

  it("parks on a task of the SDK's reference server (server-everything over stdio), asks a person its input_required question, and reads its report", async () => {
    const model = createScriptedModel([
      { content: [useTool('everything__simulate-research-query', { topic: 'python', ambiguous: true }, 'toolu_r')] },
      { content: [useTool('finish', { result: 'researched' })] },
    ]);
    const mcp = { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } } };
    const h = await createHarness(env, { tools: [], models: { scripted: model }, mcp });
    const { result, workflowId } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        model: SCRIPTED_MODEL,
        task: 'Research python',
        tools: ['everything__simulate-research-query'],
        approvals: { 'everything__simulate-research-query': 'never' },
      });
      const question = await waitFor(
        'the question',
        async () => (await h.agents.status(handle.workflowId)).openQuestion,
        60_000,
      );
      expect(question.question).toContain('The research query "python" could have multiple interpretations');
      await h.agents.answer(handle.workflowId, 'snake', 'ana');
      return { result: await handle.result(), workflowId: handle.workflowId };
    });
    model.verify();
    expect(result.terminationReason).toBe('success');
    const report = results(result.chain.steps).find((r) => r.correlationId === 'toolu_r');
    expect(report).toMatchObject({ success: true });
    expect(String(report?.result)).toContain('# Research Report: python (snake)');
    // The first task was cancelled when it asked; the second, carrying the answer, was polled to its end.
    expect(new Set(await polledTaskIds(workflowId)).size).toBe(2);
  }, 120_000);
});
