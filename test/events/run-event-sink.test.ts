import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { describe, expect, inject, it } from 'vitest';
import type { ModelProvider } from '../../src/activities';
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import { createMemoryBus } from '../../src/events/memory-bus';
import type { AgentInputInit } from '../../src/domain';
import { RunEvent } from '../../src/domain/run/run-event';
import { createAgentWorker, type AgentWorkerOptions } from '../../src/worker';
import { pollFor, waitForPending, writeFileTool } from '../helpers/approval-helpers';
import { modelsByName, scripted } from '../helpers/sub-agent-helpers';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';

const env = useTestEnv();
const EventType = temporal.api.enums.v1.EventType;

/** A lead that asks to write a file (approval: always), delegates to a helper, then finishes. */
function scripts() {
  const lead = createScriptedModel([
    { content: [say('Saving first.'), useTool('write_file', { path: '/tmp/x', text: 'hi' }, 'toolu_w1')] },
    {
      content: [say('Calling helper_agent for the task.'), useTool('helper_agent', { task: 'Look it up' }, 'toolu_h1')],
    },
    { content: [useTool('finish', { result: 'done' })] },
  ]);
  const helper = createScriptedModel([
    { content: [say('Calling lookup for the task.'), useTool('lookup', { key: 'k' })] },
    { content: [useTool('finish', { result: 'found' })] },
  ]);
  return { lead, helper, models: modelsByName({ lead, helper }) };
}

const input: AgentInputInit = {
  task: 'Write, then delegate',
  model: scripted('lead'),
  approvalTimeoutMs: 60_000,
  agents: {
    helper_agent: {
      description: 'Looks things up',
      model: scripted('helper'),
      tools: ['lookup'],
      limits: { maxIterations: 3 },
    },
  },
};

/** A worker on `taskQueue` that replays every task (no cache) unless told otherwise. */
function worker(taskQueue: string, models: ModelProvider, extra: Partial<AgentWorkerOptions> = {}, cache = false) {
  return createAgentWorker({
    connection: env.nativeConnection,
    namespace: inject('temporalNamespace'),
    taskQueue,
    tools: [...testTools().tools, writeFileTool([])],
    models: { scripted: models },
    workflowBundle: { codePath: inject('workflowBundlePath') },
    workerOptions: cache ? {} : { maxCachedWorkflows: 0 },
    ...extra,
  });
}

/** Event types of one run's history other than workflow tasks (whose number follows timing, not the run). */
async function historyShape(client: Client, workflowId: string): Promise<string[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const tasks = new Set([
    EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
    EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED,
    EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
  ]);
  return (history.events ?? [])
    .filter((e) => !tasks.has(e.eventType!))
    .map((e) => EventType[e.eventType!]!)
    .sort();
}

const alice = { id: 'alice', roles: ['ops'] };

describe.concurrent('run events from the workflow sink', () => {
  it('every step arrives once, in order, with its number; status, approval, sub-agent and end events arrive; the history is the same as without a publisher', async (t) => {
    const bus = createMemoryBus();
    const taskQueue = `test-${randomUUID()}`;
    const workflowId = `events-${randomUUID()}`;
    const received: RunEvent[] = [];
    const childEvents: RunEvent[] = [];
    bus.subscribe(workflowId, (e) => received.push(RunEvent.parse(e)));
    // The child's id is derived from the parent's and its call step; catch it by prefix.
    const all = {
      publish: (e: RunEvent) => (e.runId.startsWith(`${workflowId}/`) && childEvents.push(e), bus.publish(e)),
    };
    const { models } = scripts();
    const w = await worker(taskQueue, models, { events: all });
    const agents = new AgentClient({ client: env.client, taskQueue });
    const result = await w.runUntil(async () => {
      const handle = await agents.start(input, { workflowId });
      // The approval request reaches the watcher as an event, before anyone asks the run.
      await pollFor('an approval event', () =>
        received.find((e) => e.type === 'approval' && e.approval.status === 'pending'),
      );
      await waitForPending(agents, workflowId);
      await agents.decide(workflowId, { callId: 'toolu_w1', approved: true, by: alice });
      return handle.result();
    });
    models.verify();
    expect(result.success).toBe(true);

    const steps = received.flatMap((e) => (e.type === 'step' ? [e] : []));
    expect(steps.map((e) => e.stepNumber)).toEqual(result.chain.steps.map((s) => s.stepNumber));
    expect(steps.map((e) => e.step)).toEqual(result.chain.steps);
    const approvals = received.flatMap((e) => (e.type === 'approval' ? [e.approval.status] : []));
    expect(approvals).toEqual(['pending', 'approved']);
    const subAgents = received.flatMap((e) => (e.type === 'sub_agent' ? [e.subAgent.status] : []));
    expect(subAgents[0]).toBe('running');
    expect(subAgents.at(-1)).toBe('completed');
    const statuses = received.flatMap((e) => (e.type === 'status' ? [e.chainStatus] : []));
    expect(statuses).toContain('waiting');
    expect(statuses.at(-1)).toBe('completed');
    expect(received.at(-1)).toMatchObject({
      type: 'end',
      outcome: 'completed',
      chainStatus: 'completed',
      stepNumber: result.chain.steps.length,
    });
    // Every event names the step it follows: numbers never go back.
    const numbers = received.map((e) => e.stepNumber);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    // The child publishes its own steps under its own id, and ends.
    const childId = result.chain.subAgents![0]!.workflowId;
    const childSteps = childEvents.filter((e) => e.runId === childId && e.type === 'step').map((e) => e.stepNumber);
    expect(childSteps).toEqual(childSteps.map((_, i) => i + 1));
    expect(childSteps.length).toBeGreaterThanOrEqual(3);
    expect(childEvents.filter((e) => e.runId === childId).at(-1)).toMatchObject({ type: 'end', outcome: 'completed' });

    // The same run with no publisher records the same history.
    const plain = scripts();
    const quiet = `test-${randomUUID()}`;
    const w2 = await worker(quiet, plain.models);
    const agents2 = new AgentClient({ client: env.client, taskQueue: quiet });
    const plainId = `plain-${randomUUID()}`;
    await w2.runUntil(async () => {
      const handle = await agents2.start(input, { workflowId: plainId });
      await waitForPending(agents2, plainId);
      await agents2.decide(plainId, { callId: 'toolu_w1', approved: true, by: alice });
      return handle.result();
    });
    plain.models.verify();
    expect(await historyShape(env.client, workflowId)).toEqual(await historyShape(env.client, plainId));
    t.annotate(`${received.length} events for ${result.chain.steps.length} steps`);
  });

  it('a worker restarted mid-run (its successor replays the history) publishes no step twice', async () => {
    const bus = createMemoryBus();
    const taskQueue = `test-${randomUUID()}`;
    const workflowId = `restart-${randomUUID()}`;
    const received: RunEvent[] = [];
    bus.subscribe(workflowId, (e) => received.push(e));
    const { models } = scripts();
    const agents = new AgentClient({ client: env.client, taskQueue });
    // The first worker keeps its workflows cached, runs until the approval is pending, and stops.
    const first = await worker(taskQueue, models, { events: bus }, true);
    const handle = await first.runUntil(async () => {
      const h = await agents.start(input, { workflowId });
      await pollFor('an approval event', () => received.find((e) => e.type === 'approval'));
      return h;
    });
    const before = received.filter((e) => e.type === 'step').length;
    expect(before).toBeGreaterThan(0);
    const second = await worker(taskQueue, models, { events: bus }, true);
    const result = await second.runUntil(async () => {
      await waitForPending(agents, workflowId);
      await agents.decide(workflowId, { callId: 'toolu_w1', approved: true, by: alice });
      return handle.result();
    });
    models.verify();
    const steps = received.flatMap((e) => (e.type === 'step' ? [e.stepNumber] : []));
    expect(steps).toEqual(result.chain.steps.map((s) => s.stepNumber));
    expect(steps.length).toBeGreaterThan(before);
  });

  it('a publisher that throws fails neither a workflow task nor an activity', async () => {
    const taskQueue = `test-${randomUUID()}`;
    let calls = 0;
    const broken = {
      publish: () => {
        calls += 1;
        throw new Error('bus down');
      },
    };
    const model = createScriptedModel([
      { content: [say('Calling lookup for the task.'), useTool('lookup', { key: 'a' })] },
      { content: [useTool('finish', { result: 'ok' })] },
    ]);
    const w = await worker(taskQueue, model, { events: broken });
    const agents = new AgentClient({ client: env.client, taskQueue });
    const workflowId = `broken-${randomUUID()}`;
    const result = await w.runUntil(async () =>
      (await agents.start({ task: 'Look up a', model: scripted('any') }, { workflowId })).result(),
    );
    model.verify();
    expect(result.success).toBe(true);
    expect(calls).toBeGreaterThan(result.chain.steps.length);
    const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
    const failures = (history.events ?? []).filter(
      (e) =>
        e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED ||
        e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED,
    );
    expect(failures).toEqual([]);
  });

  it('across continue-as-new: each Temporal run ends with `continued`, step numbers go on from the carried chain, none twice', async () => {
    const bus = createMemoryBus();
    const taskQueue = `test-${randomUUID()}`;
    const workflowId = `continued-${randomUUID()}`;
    const received: RunEvent[] = [];
    bus.subscribe(workflowId, (e) => received.push(e));
    const model = createScriptedModel([
      { content: [say('Calling lookup for the task.'), useTool('lookup', { key: 'a' })] },
      { content: [say('Calling lookup for the task.'), useTool('lookup', { key: 'b' })] },
      { content: [say('Calling lookup for the task.'), useTool('lookup', { key: 'c' })] },
      { content: [useTool('finish', { result: 'abc' })] },
    ]);
    const w = await worker(taskQueue, model, { events: bus });
    const agents = new AgentClient({ client: env.client, taskQueue });
    const result = await w.runUntil(async () =>
      (
        await agents.start({ task: 'Look up a, b, c', model: scripted('any'), continueAsNewEvery: 1 }, { workflowId })
      ).result(),
    );
    model.verify();
    expect(result.success).toBe(true);
    const ends = received.flatMap((e) => (e.type === 'end' ? [e.outcome] : []));
    expect(ends.filter((o) => o === 'continued').length).toBeGreaterThanOrEqual(2);
    expect(ends.at(-1)).toBe('completed');
    expect(received.flatMap((e) => (e.type === 'step' ? [e.step] : []))).toEqual(result.chain.steps);
  });
});
