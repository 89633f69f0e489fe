import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import { telemetryBundleOptions } from '../../src/telemetry';
import { createAgentWorker, WORKFLOW_BUNDLER_OPTIONS, WORKFLOWS_PATH } from '../../src/worker';
import { pollFor, waitForPending, writeFileTool } from '../helpers/approval-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { modelsByName, scripted } from '../helpers/sub-agent-helpers';
import { createHarness, useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver';
import { duplicateSpanIds, spanTree } from './span-tree';

const env = useTestEnv();
let receiver: OtlpReceiver;
let bundlePath: string;

// Text that must never reach the receiver: it is in the task, the tool arguments and the tool results.
const SECRET = 'SECRET-7f3c';

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  // The standard variables, as a user sets them; the SDK starts on the first createAgentWorker.
  Object.assign(process.env, {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'thoughtline-telemetry-test',
  });
  // Every harness replays each workflow task from the start (maxCachedWorkflows: 0): a bundle with the telemetry interceptors.
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    ...WORKFLOW_BUNDLER_OPTIONS,
    ...telemetryBundleOptions(),
    logger: quietLogger,
  });
  bundlePath = path.resolve(__dirname, `../../.thoughtline/tmp/telemetry-bundle-${process.pid}.js`);
  fs.mkdirSync(path.dirname(bundlePath), { recursive: true });
  fs.writeFileSync(bundlePath, code);
});

afterAll(async () => {
  await receiver?.close();
  if (bundlePath) fs.rmSync(bundlePath, { force: true });
});

describe('OpenTelemetry on a real worker, exported to a real OTLP receiver', () => {
  it('gives a run one trace: the run span, chat spans and execute_tool spans with GenAI attributes, and metrics', async () => {
    const model = createScriptedModel([
      {
        content: [say('Calling lookup for the task.'), useTool('lookup', { key: SECRET }, 'call_lookup')],
        usage: { inputTokens: 120, outputTokens: 15 },
        costUsd: 0.004,
      },
      {
        content: [useTool('finish', { result: 'done' })],
        usage: { inputTokens: 200, outputTokens: 10 },
        costUsd: 0.006,
      },
    ]);
    const h = await createHarness(env, {
      tools: testTools().tools,
      models: { scripted: model },
      workflowBundlePath: bundlePath,
    });
    const { workflowId, result } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task: `Look up ${SECRET}`,
        agentName: 'tracer_one',
        model: SCRIPTED_MODEL,
      });
      return { workflowId: handle.workflowId, result: await handle.result() };
    });
    model.verify();
    expect(result.terminationReason).toBe('success');

    const run = await pollFor('the run span', () =>
      receiver.spans.find(
        (s) => s.name === 'RunWorkflow:agentWorkflow' && s.attributes['thoughtline.workflow.id'] === workflowId,
      ),
    );
    const tree = spanTree(receiver.spans);
    const trace = tree.inTrace(run.traceId);
    expect(run.parentSpanId).toBeUndefined();
    expect(run.resource['service.name']).toBe('thoughtline-telemetry-test');
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'tracer_one',
      'thoughtline.run.kind': 'root',
      'thoughtline.termination_reason': 'success',
      'thoughtline.iterations': 2,
      'gen_ai.usage.input_tokens': 320,
      'gen_ai.usage.output_tokens': 25,
    });
    expect(run.attributes['thoughtline.cost_usd']).toBeCloseTo(0.01, 9);

    const chats = trace.filter((s) => s.name === 'chat scripted-model');
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(tree.path(chat)).toEqual(['StartActivity:callModel', 'RunWorkflow:agentWorkflow']);
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'scripted',
        'gen_ai.request.model': 'scripted-model',
        'gen_ai.response.model': 'scripted-model',
        'gen_ai.agent.name': 'tracer_one',
        'thoughtline.workflow.id': workflowId,
      });
    }
    expect(
      chats.map((c) => [c.attributes['gen_ai.usage.input_tokens'], c.attributes['gen_ai.usage.output_tokens']]).sort(),
    ).toEqual([
      [120, 15],
      [200, 10],
    ]);

    const tool = tree.one('execute_tool lookup', { 'thoughtline.workflow.id': workflowId });
    expect(tool.traceId).toBe(run.traceId);
    expect(tree.path(tool)).toEqual(['StartActivity:runTool', 'RunWorkflow:agentWorkflow']);
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'thoughtline.tool.truncated': false,
    });
    expect(String(tool.attributes['gen_ai.tool.call.id'])).toContain(workflowId);

    // Replayed tasks (every task replays here) exported nothing twice; nothing of the task, arguments or results left.
    expect(duplicateSpanIds(receiver.spans)).toEqual([]);
    expect(JSON.stringify(trace)).not.toContain(SECRET);
    expect(receiver.rejected).toEqual([]);

    const metric = (name: string, attributes: Record<string, unknown>) =>
      receiver.points
        .filter((p) => p.metric === name && Object.entries(attributes).every(([k, v]) => p.attributes[k] === v))
        .at(-1)?.value;
    await pollFor('the run metrics', () => metric('thoughtline.runs.ended', { 'gen_ai.agent.name': 'tracer_one' }));
    expect(
      metric('thoughtline.runs.started', { 'gen_ai.agent.name': 'tracer_one', 'thoughtline.run.kind': 'root' }),
    ).toBe(1);
    expect(
      metric('thoughtline.runs.ended', {
        'gen_ai.agent.name': 'tracer_one',
        'thoughtline.termination_reason': 'success',
      }),
    ).toBe(1);
    expect(
      metric('thoughtline.tokens', {
        'gen_ai.agent.name': 'tracer_one',
        'gen_ai.token.type': 'input',
        'gen_ai.request.model': 'scripted-model',
      }),
    ).toBe(320);
    expect(metric('thoughtline.tokens', { 'gen_ai.agent.name': 'tracer_one', 'gen_ai.token.type': 'output' })).toBe(25);
    expect(metric('thoughtline.cost', { 'gen_ai.agent.name': 'tracer_one' })).toBeCloseTo(0.01, 9);
    expect(
      metric('gen_ai.client.operation.duration', {
        'gen_ai.agent.name': 'tracer_one',
        'gen_ai.operation.name': 'chat',
      }),
    ).toBe(2);
    expect(
      metric('thoughtline.tool.duration', { 'gen_ai.agent.name': 'tracer_one', 'gen_ai.tool.name': 'lookup' }),
    ).toBe(1);
    expect(JSON.stringify(receiver.points)).not.toContain(SECRET);
  });

  it("puts a sub-agent's run, model calls and tools under the delegating run's trace", async () => {
    const lead = createScriptedModel([
      {
        content: [
          say('Calling helper_agent for the task.'),
          useTool('helper_agent', { task: 'Look it up' }, 'call_helper'),
        ],
      },
      { content: [useTool('finish', { result: 'helped' })] },
    ]);
    const helper = createScriptedModel([
      { content: [say('Calling lookup for the task.'), useTool('lookup', { key: 'k' })] },
      { content: [useTool('finish', { result: 'k is 10' })] },
    ]);
    const models = modelsByName({ lead, helper });
    const h = await createHarness(env, {
      tools: testTools().tools,
      models: { scripted: models },
      workflowBundlePath: bundlePath,
    });
    const { workflowId, result } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task: 'Delegate the lookup',
        agentName: 'tracer_lead',
        model: scripted('lead'),
        agents: {
          helper_agent: {
            description: 'Looks things up',
            model: scripted('helper'),
            tools: ['lookup'],
            limits: { maxIterations: 3 },
          },
        },
      });
      return { workflowId: handle.workflowId, result: await handle.result() };
    });
    models.verify();
    expect(result.terminationReason).toBe('success');

    const child = await pollFor("the sub-agent's run span", () =>
      receiver.spans.find(
        (s) =>
          s.name === 'RunWorkflow:agentWorkflow' &&
          s.attributes['gen_ai.agent.name'] === 'helper_agent' &&
          String(s.attributes['thoughtline.workflow.id']).startsWith(`${workflowId}/`),
      ),
    );
    const tree = spanTree(receiver.spans);
    const parent = tree.one('RunWorkflow:agentWorkflow', { 'thoughtline.workflow.id': workflowId });
    expect(child.traceId).toBe(parent.traceId);
    expect(child.attributes['thoughtline.run.kind']).toBe('sub_agent');
    expect(tree.path(child)).toEqual(['StartChildWorkflow:agentWorkflow', 'RunWorkflow:agentWorkflow']);
    expect(tree.ancestors(child).at(-1)!.spanId).toBe(parent.spanId);

    const childTool = tree.one('execute_tool lookup', {
      'thoughtline.workflow.id': child.attributes['thoughtline.workflow.id'],
    });
    expect(childTool.traceId).toBe(parent.traceId);
    expect(childTool.attributes['gen_ai.agent.name']).toBe('helper_agent');
    expect(tree.path(childTool)).toEqual([
      'StartActivity:runTool',
      'RunWorkflow:agentWorkflow',
      'StartChildWorkflow:agentWorkflow',
      'RunWorkflow:agentWorkflow',
    ]);
    expect(tree.inTrace(parent.traceId).filter((s) => s.name === 'chat helper')).toHaveLength(2);
    expect(tree.inTrace(parent.traceId).filter((s) => s.name === 'chat lead')).toHaveLength(2);
    expect(duplicateSpanIds(receiver.spans)).toEqual([]);
  });

  it('exports no span twice when a new worker takes over a run mid-way, and records the approval on the run span', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const tools = [writeFileTool(ran)];
    const model = createScriptedModel([
      {
        content: [
          say('Calling write_file for the task.'),
          useTool('write_file', { path: 'notes.txt', text: SECRET }, 'call_write'),
        ],
      },
      { content: [useTool('finish', { result: 'written' })] },
    ]);
    const first = await createHarness(env, { tools, models: { scripted: model }, workflowBundlePath: bundlePath });
    // Worker one runs the first model call and stops while the run waits for a person.
    const workflowId = await first.worker.runUntil(async () => {
      const handle = await first.agents.start({
        task: 'Write the notes',
        agentName: 'tracer_restart',
        model: SCRIPTED_MODEL,
      });
      await waitForPending(first.agents, handle.workflowId);
      return handle.workflowId;
    });
    // Worker two, on the same task queue, has no cached state: it replays the run from its history.
    const second = await createAgentWorker({
      connection: env.nativeConnection,
      namespace: inject('temporalNamespace'),
      taskQueue: first.taskQueue,
      tools,
      models: { scripted: model },
      workflowBundle: { codePath: bundlePath },
    });
    const result = await second.runUntil(async () => {
      await first.agents.decide(workflowId, { callId: 'call_write', approved: true, by: { id: 'alice', roles: [] } });
      return first.agents.getHandle(workflowId).result();
    });
    model.verify();
    expect(result.terminationReason).toBe('success');
    expect(ran).toHaveLength(1);

    const run = await pollFor('the run span', () =>
      receiver.spans.find(
        (s) => s.name === 'RunWorkflow:agentWorkflow' && s.attributes['thoughtline.workflow.id'] === workflowId,
      ),
    );
    const tree = spanTree(receiver.spans);
    const trace = tree.inTrace(run.traceId);
    expect(duplicateSpanIds(receiver.spans)).toEqual([]);
    expect(trace.filter((s) => s.name === 'RunWorkflow:agentWorkflow')).toHaveLength(1);
    expect(trace.filter((s) => s.name === 'chat scripted-model')).toHaveLength(2);
    expect(trace.filter((s) => s.name === 'StartActivity:callModel')).toHaveLength(2);
    expect(trace.filter((s) => s.name === 'execute_tool write_file')).toHaveLength(1);
    // The decision: an update span under the run (not a trace of its own) and an event on the run span.
    expect(tree.path(tree.one('HandleUpdate:approveToolCall', {}))).toEqual(['RunWorkflow:agentWorkflow']);
    expect(run.events.filter((e) => e.name === 'thoughtline.update.approveToolCall')).toEqual([
      {
        name: 'thoughtline.update.approveToolCall',
        attributes: {
          'thoughtline.message.name': 'approveToolCall',
          'thoughtline.call.id': 'call_write',
          'thoughtline.approval.approved': true,
        },
      },
    ]);
    expect(JSON.stringify(trace)).not.toContain(SECRET);
    // Worker one flushed its metrics as it stopped, with the call still waiting.
    expect(receiver.points.some((p) => p.metric === 'thoughtline.approvals.waiting' && p.value === 1)).toBe(true);
  });
});

const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };
