import { randomUUID } from 'node:crypto';
import type { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScriptedModel, say, useTool, type ScriptedModel } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import type { A2aSettingsInit } from '../../src/activities/a2a/a2a-settings';
import type { AgentInputInit } from '../../src/domain';
import { createAgentWorker } from '../../src/worker';
import { MAX_REMOTE_TASK_CHARS } from '../../src/workflows/delegation/remote-agent-call';
import { cancelSignal } from '../../src/workflows/messages';
import { lastToolResults, pollFor } from '../helpers/approval-helpers';
import { resultStep } from '../helpers/chain-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { startMinimalA2aServer, type MinimalA2aServer } from './minimal-a2a-server';
import { activityCounts } from './remote-history';

/**
 * A run delegating to a remote A2A agent (a minimal agent of the SDK's server pieces) through the
 * two activities, on the real dev server: a worker killed while the remote task runs leaves one
 * send in history and one remote task, and the fresh worker follows that task to its answer; a
 * worker without an allow-list refuses the call visibly; a remote that asks for input ends the call.
 */
const env = useTestEnv();

const REMOTE_ANSWER = 'Revenue grew 12% in Q3, driven by the EU launch.';

/** The lead: delegates, then finishes quoting what the remote answered (or refused). */
const leadScript = (): ScriptedModel =>
  createScriptedModel([
    {
      content: [
        say('The analyst can read the report.'),
        useTool('remote_analyst', { task: 'Summarise the Q3 report' }, 'call_remote'),
      ],
    },
    {
      content: (request) => [
        useTool('finish', { result: `Remote said: ${lastToolResults(request.messages)[0]?.content ?? '(nothing)'}` }),
      ],
    },
  ]);

function agentWorker(taskQueue: string, model: ScriptedModel, a2a?: A2aSettingsInit): Promise<Worker> {
  return createAgentWorker({
    connection: env.nativeConnection,
    namespace: inject('temporalNamespace'),
    taskQueue,
    tools: [],
    models: { scripted: model },
    secrets: [],
    ...(a2a ? { a2a } : {}),
    workflowBundle: { codePath: inject('workflowBundlePath') },
    // Stops without waiting for the await in flight: its attempt is lost, as when the process is killed.
    workerOptions: { maxCachedWorkflows: 0, shutdownGraceTime: '10ms', shutdownForceTime: '300ms' },
  });
}

const input = (card: string, extra: Partial<AgentInputInit> = {}): AgentInputInit => ({
  task: 'What does the Q3 report say?',
  model: SCRIPTED_MODEL,
  requireThought: false,
  costBudgetUsd: 1,
  agents: { remote_analyst: { description: 'Reads reports (remote)', a2a: { card } } },
  ...extra,
});

const servers: MinimalA2aServer[] = [];
let remote: MinimalA2aServer;
beforeAll(async () => {
  remote = await startMinimalA2aServer();
  servers.push(remote);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe.concurrent('a remote A2A agent as a sub-agent', () => {
  it('survives a worker kill while the remote task runs: one send, one remote task, its answer and spend in the run', async () => {
    const taskQueue = `a2a-remote-${randomUUID()}`;
    const model = leadScript();
    const agents = new AgentClient({ client: env.client, taskQueue });
    const first = await agentWorker(taskQueue, model, { allow: [remote.origin] });
    const running = first.run().catch(() => undefined);
    const handle = await agents.start(input(remote.cardUrl));
    await remote.started;
    await pollFor('the send in history', async () =>
      (await activityCounts(env.client, handle.workflowId))['a2aSend']?.completed === 1 ? true : undefined,
    );
    // The await is following the task on this worker when it dies.
    await pollFor('the await polling', () => (remote.gets > 0 ? true : undefined));
    first.shutdown();
    await running;
    remote.release({
      kind: 'answer',
      text: REMOTE_ANSWER,
      thoughtline: { runId: 'remote-run-1', costUsd: 0.25, usage: { inputTokens: 900, outputTokens: 100 } },
    });

    const second = await agentWorker(taskQueue, model, { allow: [remote.origin] });
    const result = await second.runUntil(() => handle.result());
    model.verify();

    expect(result).toMatchObject({ success: true, finalAnswer: `Remote said: ${REMOTE_ANSWER}` });
    const counts = await activityCounts(env.client, handle.workflowId);
    expect(counts['a2aSend']).toEqual({ scheduled: 1, completed: 1, lastAttempt: 1 });
    // The killed worker's attempt was lost; the fresh worker's retry followed the same task.
    expect(counts['a2aAwait']).toMatchObject({ scheduled: 1, completed: 1 });
    expect(counts['a2aAwait']!.lastAttempt).toBeGreaterThanOrEqual(2);
    expect(remote.executions).toBe(1);
    expect(remote.messageIds).toEqual([`${handle.workflowId}:call_remote`]);
    // The remote's reported spend counts in the run's, like a child's.
    expect(result.costUsd).toBeCloseTo(0.25, 6);
    expect(result.usage.inputTokens).toBeGreaterThanOrEqual(900);
    const step = resultStep(result.chain.steps, 'call_remote')!;
    expect(step.toolResult.subAgent).toMatchObject({
      agentName: 'remote_analyst',
      status: 'completed',
      runId: 'remote-run-1',
      costUsd: 0.25,
      remote: { card: remote.cardUrl, taskId: expect.any(String), state: 'completed' },
    });
    expect(result.chain.subAgents).toEqual([
      expect.objectContaining({ status: 'completed', remote: expect.objectContaining({ state: 'completed' }) }),
    ]);
  });

  it('refuses every remote agent on a worker without an allow-list; the model reads why', async () => {
    const taskQueue = `a2a-remote-${randomUUID()}`;
    const model = leadScript();
    const worker = await agentWorker(taskQueue, model);
    const agents = new AgentClient({ client: env.client, taskQueue });
    const result = await worker.runUntil(async () =>
      (await agents.start(input('https://agents.example.com/card.json'))).result(),
    );
    model.verify();
    expect(result.finalAnswer).toMatch(/^Remote said: Delegation refused: RemoteAgentRefused: .*no A2A allow-list/);
    // Nothing was sent, so nothing of its sub-budget is charged.
    expect(result.costUsd).toBe(0);
    expect(resultStep(result.chain.steps, 'call_remote')!.toolResult).toMatchObject({ success: false });
    expect(result.chain.subAgents).toEqual([
      expect.objectContaining({ status: 'refused', remote: { card: 'https://agents.example.com/card.json' } }),
    ]);
  });

  it('refuses a task over the limit before sending; one at the limit goes to the send', async () => {
    const taskQueue = `a2a-remote-${randomUUID()}`;
    const model = createScriptedModel([
      {
        content: [
          useTool('remote_analyst', { task: 'x'.repeat(MAX_REMOTE_TASK_CHARS + 1) }, 'call_long'),
          useTool('remote_analyst', { task: 'y'.repeat(MAX_REMOTE_TASK_CHARS) }, 'call_limit'),
        ],
      },
      { content: [useTool('finish', { result: 'done' })] },
    ]);
    const worker = await agentWorker(taskQueue, model);
    const agents = new AgentClient({ client: env.client, taskQueue });
    const { handle, result } = await worker.runUntil(async () => {
      const started = await agents.start(input('https://agents.example.com/card.json'));
      return { handle: started, result: await started.result() };
    });
    model.verify();
    expect(resultStep(result.chain.steps, 'call_long')!.toolResult.error).toBe(
      `Delegation refused: the task for remote agent remote_analyst is ${MAX_REMOTE_TASK_CHARS + 1} characters; at most ${MAX_REMOTE_TASK_CHARS} are sent. Write a shorter task.`,
    );
    // At the limit, the task reaches the send (which this worker, without an allow-list, refuses).
    expect(resultStep(result.chain.steps, 'call_limit')!.toolResult.error).toMatch(/RemoteAgentRefused/);
    expect((await activityCounts(env.client, handle.workflowId))['a2aSend']).toMatchObject({ scheduled: 1 });
  });

  it('charges the whole sub-budget for a remote that reports no spend', async () => {
    const silent = await startMinimalA2aServer();
    servers.push(silent);
    void silent.started.then(() => silent.release({ kind: 'answer', text: 'Done, no figures.' }));
    const taskQueue = `a2a-remote-${randomUUID()}`;
    const model = leadScript();
    const worker = await agentWorker(taskQueue, model, { allow: [silent.origin] });
    const agents = new AgentClient({ client: env.client, taskQueue });
    const result = await worker.runUntil(async () => (await agents.start(input(silent.cardUrl))).result());
    model.verify();
    expect(result.finalAnswer).toBe('Remote said: Done, no figures.');
    // The run's $1 budget keeps a share for itself: the call's sub-budget is $0.5, charged whole.
    expect(result.costUsd).toBeCloseTo(0.5, 6);
    expect(result.chain.subAgents?.[0]).toMatchObject({ status: 'completed', budget: { costBudgetUsd: 0.5 } });
    expect(result.chain.subAgents?.[0]?.costUsd).toBeUndefined();
  });

  it('cancelling the run cancels the await, and the remote task with it', async () => {
    const slow = await startMinimalA2aServer();
    servers.push(slow);
    const taskQueue = `a2a-remote-${randomUUID()}`;
    // The lead never gets a second turn: the run is cancelled while the remote works.
    const model = createScriptedModel([
      { content: [useTool('remote_analyst', { task: 'Summarise the Q3 report' }, 'call_remote')] },
    ]);
    const worker = await agentWorker(taskQueue, model, { allow: [slow.origin] });
    const agents = new AgentClient({ client: env.client, taskQueue });
    const result = await worker.runUntil(async () => {
      const handle = await agents.start(input(slow.cardUrl));
      await pollFor('the await polling', () => (slow.gets > 0 ? true : undefined));
      await handle.signal(cancelSignal, { reason: 'no longer needed', by: 'alice' });
      return handle.result();
    });
    model.verify();
    expect(result.terminationReason).toBe('cancelled');
    expect(slow.cancelled).toHaveLength(1);
    expect(resultStep(result.chain.steps, 'call_remote')!.toolResult).toMatchObject({
      success: false,
      outcome: 'unknown',
    });
    expect(result.chain.subAgents).toEqual([
      expect.objectContaining({ status: 'cancelled', remote: expect.objectContaining({ taskId: slow.cancelled[0] }) }),
    ]);
  });

  it('ends the call when the remote asks for input, cancelling its task', async () => {
    const asking = await startMinimalA2aServer();
    servers.push(asking);
    const taskQueue = `a2a-remote-${randomUUID()}`;
    const model = leadScript();
    const worker = await agentWorker(taskQueue, model, { allow: [asking.cardUrl] });
    const agents = new AgentClient({ client: env.client, taskQueue });
    void asking.started.then(() => asking.release({ kind: 'ask', question: 'Which region do you mean?' }));
    const result = await worker.runUntil(async () => (await agents.start(input(asking.cardUrl))).result());
    model.verify();
    expect(result.finalAnswer).toContain('stopped to ask for input this call cannot give: "Which region do you mean?"');
    expect(result.finalAnswer).toContain('Its task was cancelled');
    expect(asking.cancelled).toHaveLength(1);
    expect(result.chain.subAgents).toEqual([
      expect.objectContaining({ status: 'failed', remote: expect.objectContaining({ state: 'input-required' }) }),
    ]);
  });
});
