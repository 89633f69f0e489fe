import { randomUUID } from 'node:crypto';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { sendUpdate, UpdateRefusedError } from '../../src/client/errors/update-refused-error';
import { readThread, sendThreadTurn, threadWorkflowId } from '../../src/client/threads/thread-client';
import { MAX_TASK_BYTES } from '../../src/domain/run/payload-size';
import type { ThreadStartInit } from '../../src/domain/threads/thread-schemas';
import { threadTurnUpdate } from '../../src/workflows/threads/thread-messages';
import { HOSTILE_PAYLOADS } from '../helpers/hostile-payloads';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { threadModels } from './thread-models';

const EventType = temporal.api.enums.v1.EventType;
const env = useTestEnv();
const models = threadModels();
let h: AgentHarness;
let running: Promise<void>;

beforeAll(async () => {
  // Turn runs use the default model (a catalogue agent names none): the scripted models answer for it.
  h = await createHarness(env, { tools: testTools().tools, models: { anthropic: models } });
  running = h.worker.run();
});
afterAll(async () => {
  h?.worker.shutdown();
  await running;
});

const owner = { id: 'ada', roles: ['developer'], tenant: 'acme' };
const startOf = (threadId = `t-${randomUUID()}`): ThreadStartInit => ({
  threadId,
  owner,
  agent: { agentName: 'agent' },
});
const finish = (answer: string) => [{ content: [say('Thought: I know it.'), useTool('finish', { result: answer })] }];
const key = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

async function settled(workflowId: string, turns: number) {
  for (let i = 0; i < 200; i++) {
    const view = await readThread(h.agents, workflowId);
    if (view && view.turns.length === turns && view.turns.every((t) => t.status !== 'running')) return view;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`thread ${workflowId} did not settle`);
}

describe('a thread', () => {
  it('takes two turns; the second run is given the first turn and its answer', async () => {
    const start = startOf();
    const first = key('first');
    const second = key('second');
    models.script(first, finish('The capital is Paris.'));
    const model2 = models.script(second, finish('About 2.1 million people.'));
    const receipt1 = await sendThreadTurn(h.agents, start, {
      turnId: 'r1',
      text: `${first}: capital of France?`,
      by: owner,
    });
    const workflowId = threadWorkflowId(owner, start.threadId);
    expect(receipt1).toEqual({ turn: 1, runId: `${workflowId}-turn-1`, repeated: false });
    await settled(workflowId, 1);
    const receipt2 = await sendThreadTurn(h.agents, start, {
      turnId: 'r2',
      text: `${second}: how many live there?`,
      by: owner,
    });
    expect(receipt2).toMatchObject({ turn: 2, repeated: false });
    const view = await settled(workflowId, 2);
    expect(view.turns.map((t) => [t.turn, t.status, t.answer])).toEqual([
      [1, 'completed', 'The capital is Paris.'],
      [2, 'completed', 'About 2.1 million people.'],
    ]);
    expect(JSON.stringify(model2.calls[0]!.messages)).toContain('The capital is Paris.');
    const result = await h.agents.result(receipt2.runId);
    expect(result.finalAnswer).toBe('About 2.1 million people.');
    // The run is the owner's: its caller, as any run's, for access and tenants.
    const described = await h.agents.getHandle(receipt2.runId).describe();
    expect(described.parentExecution?.workflowId).toBe(workflowId);
  });

  it('a repeated turn id returns the same receipt and starts nothing', async () => {
    const start = startOf();
    const k = key('once');
    models.script(k, finish('once'));
    const turn = { turnId: 'same', text: `${k}: say once`, by: owner };
    const a = await sendThreadTurn(h.agents, start, turn);
    const b = await sendThreadTurn(h.agents, start, turn);
    expect(b).toEqual({ ...a, repeated: true });
    const workflowId = threadWorkflowId(owner, start.threadId);
    await settled(workflowId, 1);
    const c = await sendThreadTurn(h.agents, start, turn);
    expect(c).toEqual({ ...a, repeated: true });
    const history = await h.agents.client.workflow.getHandle(workflowId).fetchHistory();
    const children = history.events!.filter(
      (e) => e.eventType === EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED,
    );
    expect(children).toHaveLength(1);
  });

  it('refuses a turn from another caller, a turn while one runs, and a malformed turn; none reaches history', async () => {
    const start = startOf();
    const k = key('held');
    const held = models.hold(k, finish('held answer'));
    // The worker cannot stop while the call is held: release it however the test ends.
    onTestFinished(() => held.release());
    await sendThreadTurn(h.agents, start, { turnId: 'h1', text: `${k}: wait`, by: owner });
    const workflowId = threadWorkflowId(owner, start.threadId);

    const other = sendThreadTurn(h.agents, start, {
      turnId: 'x',
      text: 'hi',
      by: { id: 'eve', roles: [], tenant: 'acme' },
    });
    await expect(other).rejects.toThrow(UpdateRefusedError);
    await expect(other).rejects.toThrow('This thread belongs to another caller');
    const sameIdOtherTenant = sendThreadTurn(h.agents, start, {
      turnId: 'y',
      text: 'hi',
      by: { ...owner, tenant: 'globex' },
    });
    await expect(sameIdOtherTenant).rejects.toThrow('another caller');

    const busy = sendThreadTurn(h.agents, start, { turnId: 'h2', text: 'next', by: owner });
    await expect(busy).rejects.toThrow(/Turn 1 is still running \(run .*-turn-1\)/);

    const handle = h.agents.client.workflow.getHandle(workflowId);
    const malformed = sendUpdate(() =>
      handle.executeUpdate(threadTurnUpdate, { args: [{ turnId: '', text: 5 } as never] }),
    );
    await expect(malformed).rejects.toThrow(/Malformed turn/);
    const oversized = { turnId: 'big', text: 'x'.repeat(MAX_TASK_BYTES + 1), by: owner };
    const tooBig = sendUpdate(() => handle.executeUpdate(threadTurnUpdate, { args: [oversized] }));
    await expect(tooBig).rejects.toThrow(/Malformed turn/);
    await expect(sendThreadTurn(h.agents, start, oversized)).rejects.toThrow(/at most 262144 bytes/);
    // Every hostile payload the wire can carry is refused by the validator; the thread lives on.
    for (const payload of HOSTILE_PAYLOADS.filter((p) => p.wire)) {
      const hostile = sendUpdate(() => handle.executeUpdate(threadTurnUpdate, { args: [payload.value() as never] }));
      await expect(hostile, payload.name).rejects.toThrow(UpdateRefusedError);
    }
    held.release();
    const view = await settled(workflowId, 1);
    expect(view.turns[0]).toMatchObject({ status: 'completed', answer: 'held answer' });
    const history = await handle.fetchHistory();
    const updates = history.events!.filter(
      (e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
    );
    expect(updates).toHaveLength(1);
  });

  it('continues as new after continueAsNewAfter turns, and after its idle time completes; the next turn starts it again from the transcript', async () => {
    const start = { ...startOf(), continueAsNewAfter: 1, idleMs: 1_000 };
    const workflowId = threadWorkflowId(owner, start.threadId);
    const keys = [key('can1'), key('can2'), key('can3')];
    keys.forEach((k, i) => models.script(k, finish(`answer ${i + 1}`)));
    const handle = h.agents.client.workflow.getHandle(workflowId);

    await sendThreadTurn(h.agents, start, { turnId: 'c1', text: `${keys[0]}: one`, by: owner });
    const first = (await handle.describe()).runId;
    await settled(workflowId, 1);
    // The handover waits for the turn to end, then carries it.
    for (let i = 0; i < 100 && (await handle.describe()).runId === first; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect((await handle.describe()).runId).not.toBe(first);

    const r2 = await sendThreadTurn(h.agents, start, { turnId: 'c2', text: `${keys[1]}: two`, by: owner });
    expect(r2.turn).toBe(2);
    await settled(workflowId, 2);
    // Idle: the execution holding turn 2 completes (after its own handover) and returns the transcript.
    const closed = await (async () => {
      for (let i = 0; i < 100; i++) {
        const d = await handle.describe();
        if (d.status.name === 'COMPLETED') return d;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the thread did not close idle');
    })();
    expect(closed.status.name).toBe('COMPLETED');
    const r3 = await sendThreadTurn(h.agents, start, { turnId: 'c3', text: `${keys[2]}: three`, by: owner });
    expect(r3).toEqual({ turn: 3, runId: `${workflowId}-turn-3`, repeated: false });
    const view = await settled(workflowId, 3);
    expect(view.turns.map((t) => t.answer)).toEqual(['answer 1', 'answer 2', 'answer 3']);
    expect(view.totalTurns).toBe(3);
  });

  it('another owner with the same thread id gets another thread; an unknown thread reads as undefined', async () => {
    const start = startOf();
    expect(threadWorkflowId(owner, start.threadId)).not.toBe(
      threadWorkflowId({ ...owner, tenant: 'globex' }, start.threadId),
    );
    expect(threadWorkflowId(owner, start.threadId)).not.toBe(
      threadWorkflowId({ id: 'eve', tenant: 'acme' }, start.threadId),
    );
    expect(threadWorkflowId(owner, start.threadId)).toBe(
      threadWorkflowId({ id: 'ada', tenant: 'acme' }, start.threadId),
    );
    expect(await readThread(h.agents, threadWorkflowId(owner, 'never-started'))).toBeUndefined();
  });
});
