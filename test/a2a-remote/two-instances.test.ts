import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ModelProvider } from '../../src/activities';
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentClient } from '../../src/client/agent-client';
import { createA2aActivities } from '../../src/activities/a2a/a2a-activities';
import { createAgentWorker } from '../../src/worker';
import { startA2aHarness, type A2aHarness } from '../a2a/a2a-harness';
import { lastToolResults, pollFor } from '../helpers/approval-helpers';
import { resultStep } from '../helpers/chain-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { activityCounts } from './remote-history';

/**
 * Issue 52's done-when: a Thoughtline run (instance A: a worker on its own task queue) delegates
 * to a second Thoughtline instance over A2A (instance B: `serve` with its A2A routes and its own
 * worker, same dev server, another task queue), and A's worker is killed while B's run works.
 * A fresh worker follows the same remote task: one send in A's history, one run on B, B's answer
 * and spend in A's result.
 */
const env = useTestEnv();

const B_ANSWER = 'gamma is 50, per the lookup table.';
const TOKEN_ENV = 'TL_TEST_A2A_REMOTE_TOKEN';

/** B's model: its one call waits until the test lets it answer, so A's worker can die meanwhile. */
function gatedModel(): ModelProvider & { release(): void; calls: number } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const inner = createScriptedModel([
    {
      content: [useTool('finish', { result: B_ANSWER })],
      usage: { inputTokens: 700, outputTokens: 50 },
      costUsd: 0.03,
    },
  ]);
  const model = {
    name: 'scripted',
    calls: 0,
    release: () => release(),
    async complete(...args: Parameters<ModelProvider['complete']>) {
      model.calls += 1;
      await gate;
      return inner.complete(...args);
    },
  };
  return model;
}

let b: A2aHarness;
let bModel: ReturnType<typeof gatedModel>;
beforeAll(async () => {
  bModel = gatedModel();
  b = await startA2aHarness(env, {
    tools: [],
    model: bModel,
    agents: [
      defineAgent({
        id: 'researcher',
        description: 'Looks values up.',
        version: '1.0.0',
        systemPrompt: 'You are the research agent.',
        tools: [],
      }),
    ],
  });
  // A's worker reads B's token from its environment, never from the run.
  process.env[TOKEN_ENV] = b.tokens.dev;
});
afterAll(async () => {
  delete process.env[TOKEN_ENV];
  await b?.close();
});

function workerA(taskQueue: string, model: ReturnType<typeof createScriptedModel>, origin: string): Promise<Worker> {
  return createAgentWorker({
    connection: env.nativeConnection,
    namespace: inject('temporalNamespace'),
    taskQueue,
    tools: [],
    models: { scripted: model },
    secrets: [],
    a2a: { allow: [origin], auth: { [origin]: { bearerEnv: TOKEN_ENV } } },
    workflowBundle: { codePath: inject('workflowBundlePath') },
    workerOptions: { maxCachedWorkflows: 0, shutdownGraceTime: '10ms', shutdownForceTime: '300ms' },
  });
}

describe('a Thoughtline run delegating to another Thoughtline instance over A2A', () => {
  it('survives a worker kill while the remote run works, without a second remote run', async () => {
    const origin = b.servers[0].url;
    const card = `${origin}/a2a/researcher/.well-known/agent-card.json`;
    const taskQueue = `a2a-two-${randomUUID()}`;
    const lead = createScriptedModel([
      { content: [say('The researcher knows.'), useTool('researcher_remote', { task: 'Find gamma' }, 'call_b')] },
      {
        content: (request) => [
          useTool('finish', { result: `B says: ${lastToolResults(request.messages)[0]?.content}` }),
        ],
      },
    ]);
    const agents = new AgentClient({ client: env.client, taskQueue });
    const first = await workerA(taskQueue, lead, origin);
    const running = first.run().catch(() => undefined);
    const handle = await agents.start({
      task: 'What is gamma?',
      model: SCRIPTED_MODEL,
      requireThought: false,
      agents: { researcher_remote: { description: 'A remote researcher', a2a: { card } } },
    });
    // B's run is waiting in its model call, and A's await is following its task, when A's worker dies.
    await pollFor('B working', () => (bModel.calls > 0 ? true : undefined), 20_000);
    await pollFor('the await running on the first worker', async () => {
      const pending = (await handle.describe()).raw.pendingActivities ?? [];
      return pending.some((a) => a.activityType?.name === 'a2aAwait' && a.lastStartedTime) ? true : undefined;
    });
    first.shutdown();
    await running;
    bModel.release();

    const second = await workerA(taskQueue, lead, origin);
    const result = await second.runUntil(() => handle.result());
    lead.verify();

    expect(result).toMatchObject({ success: true, finalAnswer: `B says: ${B_ANSWER}` });
    const counts = await activityCounts(env.client, handle.workflowId);
    expect(counts['a2aSend']).toEqual({ scheduled: 1, completed: 1, lastAttempt: 1 });
    expect(counts['a2aAwait']).toMatchObject({ scheduled: 1, completed: 1 });
    // The first worker's attempt was lost with it; the fresh worker's retry followed the same task.
    expect(counts['a2aAwait']!.lastAttempt).toBeGreaterThanOrEqual(2);
    // B started exactly one run for the delegation (its task queue holds one workflow).
    const runsOnB: string[] = [];
    for await (const w of env.client.workflow.list({ query: `TaskQueue = '${b.agents.taskQueue}'` }))
      runsOnB.push(w.workflowId);
    expect(runsOnB).toHaveLength(1);
    expect(bModel.calls).toBe(1);
    // B's spend, reported in its task's metadata, counts in A's.
    expect(result.costUsd).toBeCloseTo(0.03, 6);
    expect(resultStep(result.chain.steps, 'call_b')!.toolResult.subAgent).toMatchObject({
      status: 'completed',
      runId: runsOnB[0],
      costUsd: 0.03,
      remote: { card, state: 'completed' },
    });
    // A send retried with the same message id (as Temporal retries a2aSend) reaches the same run on B.
    const taskId = resultStep(result.chain.steps, 'call_b')!.toolResult.subAgent!.remote!.taskId;
    const acts = createA2aActivities({
      settings: { allow: [origin], auth: { [origin]: { bearerEnv: TOKEN_ENV } } },
      redact: (v) => v,
    });
    const again = await new MockActivityEnvironment().run(() =>
      acts.a2aSend({
        agent: 'researcher_remote',
        card,
        messageId: `${handle.workflowId}:call_b`,
        text: 'Find gamma',
        maxChars: 1_000,
      }),
    );
    expect(again).toMatchObject({ kind: 'task', taskId });
    const runsAfter: string[] = [];
    for await (const w of env.client.workflow.list({ query: `TaskQueue = '${b.agents.taskQueue}'` }))
      runsAfter.push(w.workflowId);
    expect(runsAfter).toEqual(runsOnB);
    // The token never enters A's chain.
    expect(JSON.stringify(result.chain)).not.toContain(b.tokens.dev);
  });
});
