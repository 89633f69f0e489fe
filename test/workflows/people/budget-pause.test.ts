import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import type { ModelProvider } from '../../../src/activities';
import { createScriptedModel, say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import { StatusAttribute, totalTokens, type AgentStatus, type BudgetRaise } from '../../../src/domain';
import { cancelSignal, raiseBudgetUpdate, statusQuery } from '../../../src/workflows/messages';
import { estimateInputTokens, MIN_OUTPUT_TOKENS } from '../../../src/workflows/model/budget';
import { llmCalls, thoughts } from '../../helpers/chain-helpers';
import { scheduledActivities } from '../../helpers/history';
import { runScripted } from '../../helpers/run-scripted';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { modelsByName, scripted } from '../../helpers/sub-agent-helpers';
import { testTools } from '../../helpers/test-tools';
import { keysOf } from '../../helpers/decision-signing';
import { inMemorySigner } from '../../../src/server/signing/keyring-signer';

const EventType = temporal.api.enums.v1.EventType;
const env = useTestEnv();
const task = 'Find the values.';
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Three turns: two lookups, then finish; each with known usage, so the budget can be set to the token. */
const budgetScript = (): ScriptedTurn[] => [
  {
    content: [say('Looking up a.'), useTool('lookup', { key: 'a' }, 'toolu_b1')],
    usage: { inputTokens: 1000, outputTokens: 50 },
    costUsd: 0.01,
  },
  {
    content: [useTool('lookup', { key: 'bb' }, 'toolu_b2')],
    usage: { inputTokens: 1500, outputTokens: 60 },
    costUsd: 0.02,
  },
  {
    content: [useTool('finish', { result: 'a=10, bb=20' }, 'toolu_b3')],
    usage: { inputTokens: 1600, outputTokens: 40 },
  },
];
const spentAfterTwo = 1000 + 50 + 1500 + 60;
const spentAfterThree = spentAfterTwo + 1600 + 40;

/** One token short of room for the third call (as termination.test.ts measures it). */
async function tightTokenBudget(): Promise<number> {
  return (await dryRun()).budget;
}

/** The same script without a budget: the tight budget, and the run's history to compare with. */
async function dryRun(): Promise<{ budget: number; workflowId: string }> {
  const dry = await runScripted(env, { script: budgetScript(), input: { task } });
  return {
    budget: spentAfterTwo + estimateInputTokens(dry.model.calls[2]!) + MIN_OUTPUT_TOKENS - 1,
    workflowId: dry.workflowId,
  };
}

/**
 * The script's turn for the conversation as it stands (one assistant message per earlier turn),
 * so an attempt retried after a stopped worker gets the same reply: what the kill test counts is
 * the ledger, not how often a provider was asked.
 */
function replyByTurn(turns: ScriptedTurn[]): ModelProvider & { turnsAsked: number[] } {
  const turnsAsked: number[] = [];
  return {
    name: 'scripted',
    turnsAsked,
    complete(request, signal, hooks) {
      const turn = request.messages.filter((m) => m.role === 'assistant').length;
      turnsAsked.push(turn);
      return createScriptedModel([turns[turn]!]).complete(request, signal, hooks);
    },
  };
}

async function pausedStatus(handle: WorkflowHandle): Promise<AgentStatus> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await wait(100)) {
    const status = await handle.query(statusQuery);
    if (status.budgetPause) return status;
  }
  throw new Error('the run never paused at its budget');
}

/** The status, asked again when a query was handed to a stopped worker's last poll and timed out. */
async function statusAfterKill(handle: WorkflowHandle): Promise<AgentStatus> {
  for (let tries = 1; ; tries++) {
    try {
      return await handle.query(statusQuery);
    } catch (err) {
      if (tries >= 5 || !/query timed out/i.test(String((err as Error).cause ?? err))) throw err;
    }
  }
}

async function refusal(handle: WorkflowHandle, raise: unknown): Promise<string | undefined> {
  try {
    await handle.executeUpdate(raiseBudgetUpdate, { args: [raise as BudgetRaise] });
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
    return (err as WorkflowUpdateFailedError).cause?.message;
  }
}

/**
 * The run's signer: a raise counts its roles when a key the run holds signs them (as serve does for
 * the people it authenticates); every run here starts with `keys`.
 */
const signer = inMemorySigner();
const keys = keysOf(signer);

/** `raise` signed for `by`, naming the pause the run waits at (read from status unless given). */
async function signed(
  handle: WorkflowHandle,
  raise: Omit<BudgetRaise, 'by' | 'pauseId' | 'signature'>,
  by: { id: string; roles: string[] },
  status?: AgentStatus,
): Promise<BudgetRaise> {
  const pauseId = (status ?? (await handle.query(statusQuery))).budgetPause!.pauseId;
  return signer.sign('budget', handle.workflowId, { ...raise, pauseId, by }, { ...by, via: 'in-process' });
}

async function eventCount(handle: WorkflowHandle, type: number): Promise<number> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).filter((e) => e.eventType === type).length;
}

/** Model calls whose reply is in the run's history (completed callModel activities). */
async function completedModelCalls(handle: WorkflowHandle): Promise<number> {
  const events = (await handle.fetchHistory()).events ?? [];
  const types = new Map(
    events.map((e) => [String(e.eventId), e.activityTaskScheduledEventAttributes?.activityType?.name]),
  );
  return events.filter(
    (e) =>
      e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED &&
      types.get(String(e.activityTaskCompletedEventAttributes?.scheduledEventId)) === 'callModel',
  ).length;
}

function start(script: ScriptedTurn[] = budgetScript()) {
  const model = createScriptedModel(script);
  const { tools } = testTools();
  return { model, harness: createHarness(env, { tools, models: { scripted: model } }) };
}

describe("onBudget: 'ask' (real dev server)", () => {
  it('pauses at the token budget, shows what was spent, refuses bad raises, and goes on after a raise', async () => {
    const dry = await dryRun();
    const tokenBudget = dry.budget;
    const { model, harness } = start();
    const h = await harness;
    const out = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task,
        model: SCRIPTED_MODEL,
        tokenBudget,
        onBudget: 'ask',
        budgetRaiserRoles: ['finance'],
        ...keys,
      });
      const paused = await pausedStatus(handle);
      const searchable = (await handle.describe()).typedSearchAttributes.get(StatusAttribute);
      const alice = { id: 'alice', roles: ['finance'] };
      const refused = {
        noRole: await refusal(handle, await signed(handle, { tokens: 5_000 }, { id: 'mallory', roles: ['ops'] })),
        claimed: await refusal(handle, { tokens: 5_000, by: alice }),
        wrongBudget: await refusal(handle, await signed(handle, { iterations: 3 }, alice)),
        negative: await refusal(handle, await signed(handle, { tokens: -5 }, alice)),
        tooMuch: await refusal(handle, await signed(handle, { tokens: 100_000_001 }, alice)),
        noCost: await refusal(handle, await signed(handle, { tokens: 5, costUsd: 1 }, alice)),
        unreadable: await refusal(handle, { tokens: '5000' }),
      };
      const atLimit = await handle.executeUpdate(raiseBudgetUpdate, {
        args: [await signed(handle, { tokens: 100_000_000, note: 'worth it' }, alice)],
      });
      const result = await handle.result();
      return { handle, paused, searchable, refused, atLimit, result };
    });
    model.verify();
    const { paused, searchable, refused, atLimit, result, handle } = out;

    expect(paused.status).toBe('waiting');
    expect(paused.waitingFor).toMatch(/^a raise of its budget: Token budget: 2610 of \d+ tokens spent/);
    expect(paused.budgetPause).toMatchObject({
      reason: 'token_budget',
      spent: {
        tokens: spentAfterTwo,
        costUsd: expect.closeTo(0.03, 10),
        iterations: 3,
        modelCalls: 2,
        tools: [{ name: 'lookup', calls: 2 }],
      },
      budgets: { tokenBudget, maxIterations: 10 },
      raiserRoles: ['finance'],
    });
    expect(searchable).toBe('awaiting_budget');
    expect(refused.noRole).toMatch(/mallory may not raise this run's budget: it needs one of the roles finance/);
    expect(refused.claimed).toMatch(/verified by a signature .*; alice claimed finance, not verified\.$/);
    expect(refused.wrongBudget).toBe('The run paused at its token budget: a raise must include tokens.');
    expect(refused.negative).toBe('Every amount must be a positive number.');
    expect(refused.tooMuch).toBe('One raise adds at most 100000000 tokens.');
    expect(refused.noCost).toBe('This run has no cost budget to raise.');
    expect(refused.unreadable).toMatch(/^Malformed raise/);
    expect(atLimit).toBe('Budget raised; the run goes on.');

    expect(result).toMatchObject({ success: true, terminationReason: 'success', modelCalls: 3 });
    expect(totalTokens(result.usage)).toBe(spentAfterThree);
    const raised = result.chain.steps.filter((s) => s.type === 'thinking' && s.fromPerson?.kind === 'budget');
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({
      fromPerson: { kind: 'budget', by: 'alice' },
      thought: `Budget raised by alice (finance): +100000000 tokens (now ${tokenBudget + 100_000_000} tokens, 10 iterations): worth it.`,
    });
    // One update reached history (the refused ones never did), and the pause's one timer.
    expect(await eventCount(handle, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED)).toBe(1);
    expect(await eventCount(handle, EventType.EVENT_TYPE_TIMER_STARTED)).toBe(1);
    // What the pause cost in actions, against the same run with no budget: one timer, one update, two
    // upserts, and the lookup of its tools before its first call (a budget prices them; the run without
    // one has its first call describe them).
    const unpaused = env.client.workflow.getHandle(dry.workflowId);
    const actions = async (h: WorkflowHandle) => ({
      timers: await eventCount(h, EventType.EVENT_TYPE_TIMER_STARTED),
      updates: await eventCount(h, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED),
      upserts: await eventCount(h, EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES),
      activities: await eventCount(h, EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED),
    });
    const [before, after] = [await actions(unpaused), await actions(handle)];
    expect({
      timers: after.timers - before.timers,
      updates: after.updates - before.updates,
      upserts: after.upserts - before.upserts,
      activities: after.activities - before.activities,
    }).toEqual({ timers: 1, updates: 1, upserts: 2, activities: 1 });
  });

  it('stop ends the run as the budget would have; no answer in time ends it too', async () => {
    const tokenBudget = await tightTokenBudget();
    const stopped = start();
    const h = await stopped.harness;
    const { result, answer } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ task, model: SCRIPTED_MODEL, tokenBudget, onBudget: 'ask', ...keys });
      await pausedStatus(handle);
      const answer = await handle.executeUpdate(raiseBudgetUpdate, {
        args: [await signed(handle, { stop: true, note: 'enough' }, { id: 'bob', roles: ['developer'] })],
      });
      return { answer, result: await handle.result() };
    });
    expect(answer).toBe('The run will stop at its budget.');
    expect(result).toMatchObject({ success: false, terminationReason: 'token_budget', modelCalls: 2 });
    expect(thoughts(result.chain.steps)).toContain('Stopped at the budget by bob (developer): enough.');

    const { result: timedOut, model } = await runScripted(env, {
      script: budgetScript().slice(0, 2),
      input: { task, tokenBudget, onBudget: 'ask', budgetWaitTimeoutMs: 500 },
    });
    model.verify();
    expect(timedOut).toMatchObject({ success: false, terminationReason: 'token_budget', modelCalls: 2 });
    expect(thoughts(timedOut.chain.steps)).toContain('Nobody raised the budget within 500 ms; the run ends at it.');
  });

  it('a cancel while paused ends the run as cancelled, with no raise recorded', async () => {
    const { model, harness } = start();
    const h = await harness;
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ task, model: SCRIPTED_MODEL, maxIterations: 1, onBudget: 'ask' });
      await pausedStatus(handle);
      await handle.signal(cancelSignal, { reason: 'not worth it', by: 'bob' });
      return handle.result();
    });
    expect(model.calls).toHaveLength(1);
    expect(result).toMatchObject({ success: false, terminationReason: 'cancelled', modelCalls: 1 });
    expect(result.chain.steps.some((st) => st.type === 'thinking' && st.fromPerson?.kind === 'budget')).toBe(false);
  });

  it('pauses at the iteration limit and goes on for the iterations raised', async () => {
    const { model, harness } = start();
    const h = await harness;
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ task, model: SCRIPTED_MODEL, maxIterations: 2, onBudget: 'ask', ...keys });
      const paused = await pausedStatus(handle);
      expect(paused.budgetPause).toMatchObject({ reason: 'max_iterations', spent: { iterations: 2 } });
      const carol = { id: 'carol', roles: ['operator'] };
      await handle.executeUpdate(raiseBudgetUpdate, { args: [await signed(handle, { iterations: 1 }, carol, paused)] });
      return handle.result();
    });
    model.verify();
    expect(result).toMatchObject({ success: true, iterations: 3, modelCalls: 3 });
    expect(llmCalls(result.chain.steps)).toHaveLength(3);
  });

  it('a default run never pauses: it ends at its budget as before', async () => {
    const tokenBudget = await tightTokenBudget();
    const { result } = await runScripted(env, { script: budgetScript().slice(0, 2), input: { task, tokenBudget } });
    expect(result).toMatchObject({ terminationReason: 'token_budget', modelCalls: 2 });
    expect(thoughts(result.chain.steps).some((t) => t.startsWith('Paused at the budget'))).toBe(false);
  });

  it('a tree is asked once, at the top: a sub-agent at its sub-budget ends as before, the parent pauses', async () => {
    const lead = createScriptedModel([
      { content: [say('Delegating.'), useTool('helper_agent', { task: 'Look up a' }, 'call_helper')] },
      { content: [useTool('lookup', { key: 'bb' }, 'toolu_l2')] },
      { content: [useTool('finish', { result: 'a=10, bb=20' }, 'toolu_l3')] },
    ]);
    const helper = createScriptedModel([
      { content: [useTool('lookup', { key: 'a' }, 'toolu_h1')] },
      { content: [say('a is 10; out of iterations.')] },
    ]);
    const models = modelsByName({ lead, helper });
    const { tools } = testTools();
    const h = await createHarness(env, { tools, models: { scripted: models } });
    const { result, child } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task,
        model: scripted('lead'),
        maxIterations: 2,
        onBudget: 'ask',
        ...keys,
        agents: {
          helper_agent: {
            description: 'Looks things up',
            model: scripted('helper'),
            tools: ['lookup'],
            limits: { maxIterations: 1 },
          },
        },
      });
      const paused = await pausedStatus(handle);
      expect(paused.budgetPause).toMatchObject({ reason: 'max_iterations', spent: { iterations: 2 } });
      const alice = { id: 'alice', roles: ['developer'] };
      await handle.executeUpdate(raiseBudgetUpdate, { args: [await signed(handle, { iterations: 1 }, alice, paused)] });
      const result = await handle.result();
      const call = result.chain.steps.find((st) => st.type === 'tool_call' && st.toolCall.toolName === 'helper_agent');
      const childId = call?.type === 'tool_call' ? call.toolCall.delegatedTo!.workflowId : '';
      return { result, child: await h.agents.getHandle(childId).result() };
    });
    models.verify();
    expect(child).toMatchObject({ terminationReason: 'max_iterations' });
    expect(thoughts(child.chain.steps).some((t) => t.startsWith('Paused at the budget'))).toBe(false);
    expect(result).toMatchObject({ success: true, iterations: 3 });
    expect(thoughts(result.chain.steps).filter((t) => t.startsWith('Paused at the budget'))).toHaveLength(1);
  });

  it('workers killed before and after the pause: nothing is called or counted twice', async () => {
    const tokenBudget = await tightTokenBudget();
    const model = replyByTurn(budgetScript());
    const { tools } = testTools();
    const first = await createHarness(env, { tools, models: { scripted: model } });
    // The first worker stops once the run is paused: its cached run is gone with it.
    const handle = await first.worker.runUntil(async () => {
      const handle = await first.agents.start({ task, model: SCRIPTED_MODEL, tokenBudget, onBudget: 'ask', ...keys });
      await pausedStatus(handle);
      return handle;
    });
    // A second worker, replaying the whole history on every task, takes the raise and stops at once.
    const second = await createHarness(env, {
      tools,
      models: { scripted: model },
      taskQueue: first.taskQueue,
      replayEveryTask: true,
    });
    await second.worker.runUntil(async () => {
      const status = await statusAfterKill(handle);
      expect(status.budgetPause?.spent.tokens).toBe(spentAfterTwo);
      const alice = { id: 'alice', roles: ['developer'] };
      await handle.executeUpdate(raiseBudgetUpdate, { args: [await signed(handle, { tokens: 5_000 }, alice, status)] });
      // Stops once the third call's reply is in the history (an attempt cut off mid-call would be retried: not the
      // point here). Read from the history, not the status: a query every 50 ms to this worker, which replays every
      // task, held the run up 10-30 s in most runs (the call's first attempt lost, or a query or the stop stuck).
      while ((await completedModelCalls(handle)) < 3) await wait(50);
    });
    // A third finishes the run.
    const third = await createHarness(env, {
      tools,
      models: { scripted: model },
      taskQueue: first.taskQueue,
      replayEveryTask: true,
    });
    const result = await third.worker.runUntil(() => handle.result());
    // Each turn was asked at least once; an attempt lost with a stopped worker may be asked again.
    expect(new Set(model.turnsAsked)).toEqual(new Set([0, 1, 2]));

    expect(result).toMatchObject({ success: true, modelCalls: 3, toolCalls: 2 });
    expect(totalTokens(result.usage)).toBe(spentAfterThree);
    expect(result.costUsd).toBeCloseTo(0.03, 10);
    const modelActivities = (await scheduledActivities(env.client, handle.workflowId)).filter((a) =>
      a.type.toLowerCase().includes('model'),
    );
    expect(modelActivities).toHaveLength(3);
    expect(result.chain.steps.filter((st) => st.type === 'tool_call' && st.toolCall.toolType === 'llm')).toHaveLength(
      3,
    );
    expect(result.chain.steps.filter((s) => s.type === 'thinking' && s.fromPerson?.kind === 'budget')).toHaveLength(1);
    expect(thoughts(result.chain.steps).filter((t) => t.startsWith('Paused at the budget'))).toHaveLength(1);
    expect(await eventCount(handle, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED)).toBe(1);
    // A task handed to a stopped worker's last poll is lost until its timeout (about 30 s), then retried: room for one.
  }, 120_000);
});
