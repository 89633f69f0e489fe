import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { readMemoryEntries, updateMemory } from '../../../src/activities/memory/agent-memory-execution';
import {
  MAX_LEARNINGS_PER_UPDATE,
  MAX_MEMORY_ENTRIES,
  memoryWorkflowId,
  type AgentMemoryState,
  type MemoryKey,
} from '../../../src/domain/planning/agent-memory';
import { MAX_LEARNING_CHARS } from '../../../src/domain/planning/plan-verdicts';
import { agentMemoryQuery, rememberLearningsUpdate } from '../../../src/workflows/memory/agent-memory-messages';
import type { agentMemoryWorkflow } from '../../../src/workflows/memory/agent-memory-workflow';
import { HOSTILE_PAYLOADS } from '../../helpers/hostile-payloads';
import { ScriptBook, sharedWorker } from '../../helpers/people-helpers';

const EventType = temporal.api.enums.v1.EventType;
const shared = sharedWorker(() => [], new ScriptBook().provider);

const agentKey = (tenant = 'acme'): MemoryKey => ({ tenant, agent: `agent-${randomUUID().slice(0, 8)}` });
const keep = (key: MemoryKey, runId: string, texts: string[], idleMs?: number) =>
  updateMemory(
    shared.env.client,
    key,
    rememberLearningsUpdate,
    { runId, learnings: texts.map((text) => ({ text })) },
    { taskQueue: shared.h.taskQueue, ...(idleMs !== undefined ? { idleMs } : {}) },
  );
const memoryHandle = (key: MemoryKey, runId?: string) =>
  shared.env.client.workflow.getHandle<typeof agentMemoryWorkflow>(memoryWorkflowId(key.tenant, key.agent), runId);
async function eventTypes(key: MemoryKey, runId?: string): Promise<number[]> {
  const history = await memoryHandle(key, runId).fetchHistory();
  return (history.events ?? []).map((e) => e.eventType ?? EventType.EVENT_TYPE_UNSPECIFIED);
}
const count = (types: number[], name: keyof typeof EventType) => types.filter((t) => t === EventType[name]).length;

describe('an agent memory', () => {
  it('remembers (update-with-start, then updates), lists newest last, forgets by id and all; 1 start and 1 update each', async () => {
    const key = agentKey();
    const first = await keep(key, 'run-1', ['use the v2 API', 'retry on 429']);
    expect(first).toMatchObject({ duplicates: 0, dropped: 0, count: 2, limit: MAX_MEMORY_ENTRIES });
    const second = await keep(key, 'run-2', ['retry on 429', 'cache the token']);
    expect(second).toMatchObject({ duplicates: 1, count: 3 });
    const entries = await shared.h.agents.memory(key);
    expect(entries.map((e) => [e.text, e.fromRun])).toEqual([
      ['use the v2 API', 'run-1'],
      ['retry on 429', 'run-1'],
      ['cache the token', 'run-2'],
    ]);
    expect(new Set(entries.map((e) => e.id)).size).toBe(3);

    const forgot = await shared.h.agents.forgetMemory({ ...key, ids: [entries[1]!.id, 'no-such-id'] });
    expect(forgot).toEqual({ forgotten: [entries[1]!.id], count: 2 });
    expect((await shared.h.agents.memory(key)).map((e) => e.text)).toEqual(['use the v2 API', 'cache the token']);
    expect(await shared.h.agents.forgetMemory({ ...key, all: true })).toMatchObject({ count: 0 });
    expect(await shared.h.agents.memory(key)).toEqual([]);

    // Temporal actions: one start, four updates (2 remember, 2 forget), one idle timer for them all.
    const types = await eventTypes(key);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED')).toBe(1);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED')).toBe(4);
    expect(count(types, 'EVENT_TYPE_TIMER_STARTED')).toBe(1);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_TASK_FAILED')).toBe(0);
  });

  it('a memory never kept lists none and forgetting from it starts nothing', async () => {
    const key = agentKey();
    expect(await shared.h.agents.memory(key)).toEqual([]);
    expect(await shared.h.agents.forgetMemory({ ...key, all: true })).toEqual({ forgotten: [], count: 0 });
    await expect(memoryHandle(key).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  });

  it('two tenants never see each other’s entries for the same agent name', async () => {
    const acme = agentKey('acme');
    const globex = { tenant: 'globex', agent: acme.agent };
    await keep(acme, 'run-a', ['acme only']);
    await keep(globex, 'run-g', ['globex only']);
    expect((await shared.h.agents.memory(acme)).map((e) => e.text)).toEqual(['acme only']);
    expect((await shared.h.agents.memory(globex)).map((e) => e.text)).toEqual(['globex only']);
    expect(await shared.h.agents.memory({ agent: acme.agent })).toEqual([]);
    await shared.h.agents.forgetMemory({ ...globex, all: true });
    expect((await shared.h.agents.memory(acme)).map((e) => e.text)).toEqual(['acme only']);
  });
});

describe('what the memory workflow refuses', () => {
  it(`takes ${MAX_LEARNINGS_PER_UPDATE} learnings of ${MAX_LEARNING_CHARS} characters; refuses more, and every hostile payload, in its validator`, async () => {
    const key = agentKey();
    const atLimit = Array.from({ length: MAX_LEARNINGS_PER_UPDATE }, (_, i) => `${i}`.padEnd(MAX_LEARNING_CHARS, '.'));
    expect(await keep(key, 'run-1', atLimit)).toMatchObject({ count: MAX_LEARNINGS_PER_UPDATE });
    const handle = memoryHandle(key);
    const good = { runId: 'run-2', learnings: [{ text: 'fine' }] };
    const bad: Array<[string, unknown]> = [
      ...HOSTILE_PAYLOADS.filter((p) => p.wire).map((p): [string, unknown] => [p.name, p.value()]),
      ['21 learnings', { runId: 'r', learnings: Array.from({ length: 21 }, (_, i) => ({ text: `t${i}` })) }],
      ['a text of 501 characters', { runId: 'r', learnings: [{ text: 'x'.repeat(MAX_LEARNING_CHARS + 1) }] }],
      ['no learnings', { runId: 'r', learnings: [] }],
      ['an empty text', { runId: 'r', learnings: [{ text: '' }] }],
      ['no runId', { learnings: [{ text: 'a' }] }],
      ['a runId of 257 characters', { ...good, runId: 'r'.repeat(257) }],
      ['a fromRun of its own', { runId: 'r', learnings: [{ text: 'a', fromRun: 'someone-else' }] }],
      ['an unknown field', { ...good, weight: 2 }],
    ];
    for (const [name, payload] of bad) {
      await expect(handle.executeUpdate('rememberLearnings', { args: [payload] }), name).rejects.toBeInstanceOf(
        WorkflowUpdateFailedError,
      );
    }
    for (const [name, payload] of [
      ...HOSTILE_PAYLOADS.filter((p) => p.wire).map((p): [string, unknown] => [p.name, p.value()]),
      ['no ids', { ids: [] }],
      ['all: false', { all: false }],
      ['both', { ids: ['a'], all: true }],
      ['101 ids', { ids: Array.from({ length: 101 }, (_, i) => `id${i}`) }],
    ] as Array<[string, unknown]>) {
      await expect(handle.executeUpdate('forgetMemory', { args: [payload] }), name).rejects.toBeInstanceOf(
        WorkflowUpdateFailedError,
      );
    }
    // A query with arguments it does not take still answers.
    expect((await handle.query<{ entries: unknown[] }, [unknown]>('agentMemory', 42)).entries).toHaveLength(
      MAX_LEARNINGS_PER_UPDATE,
    );
    const types = await eventTypes(key);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED')).toBe(1);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_REJECTED')).toBe(0);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_TASK_FAILED')).toBe(0);
    await handle.terminate('test over');
  }, 120_000);

  it(`keeps at most ${MAX_MEMORY_ENTRIES} entries: learnings past it drop the oldest`, async () => {
    const key = agentKey();
    const at = new Date().toISOString();
    const carried: AgentMemoryState = {
      schemaVersion: 1,
      ...key,
      entries: Array.from({ length: MAX_MEMORY_ENTRIES - 1 }, (_, i) => ({ id: `old${i}`, text: `old ${i}`, at })),
    };
    await shared.env.client.workflow.start<typeof agentMemoryWorkflow>('agentMemoryWorkflow', {
      workflowId: memoryWorkflowId(key.tenant, key.agent),
      taskQueue: shared.h.taskQueue,
      args: [{ ...key, carried }],
    });
    expect(await keep(key, 'run-1', ['the hundredth'])).toMatchObject({ count: MAX_MEMORY_ENTRIES, dropped: 0 });
    expect(await keep(key, 'run-2', ['new a', 'new b', 'new c'])).toMatchObject({
      count: MAX_MEMORY_ENTRIES,
      dropped: 3,
    });
    const entries = await readMemoryEntries(shared.env.client, key);
    expect(entries).toHaveLength(MAX_MEMORY_ENTRIES);
    expect(entries.slice(0, 2).map((e) => e.id)).toEqual(['old3', 'old4']);
    expect(entries.slice(-4).map((e) => e.text)).toEqual(['the hundredth', 'new a', 'new b', 'new c']);
    await memoryHandle(key).terminate('test over');
  });
});

describe('lifetime', () => {
  it('closes after its idle time returning its entries; they are still listed; a later learning reopens it carrying them', async () => {
    const key = agentKey();
    await keep(key, 'run-1', ['first'], 1_500);
    const first = await memoryHandle(key).describe();
    const closed = await memoryHandle(key, first.runId).result();
    expect(closed.entries.map((e) => e.text)).toEqual(['first']);
    expect((await shared.h.agents.memory(key)).map((e) => e.text)).toEqual(['first']);
    // Forgetting nothing it holds starts nothing.
    expect(await shared.h.agents.forgetMemory({ ...key, ids: ['nope'] })).toEqual({ forgotten: [], count: 1 });
    expect((await memoryHandle(key).describe()).runId).toBe(first.runId);

    expect(await keep(key, 'run-2', ['second'], 60_000)).toMatchObject({ count: 2 });
    const second = await memoryHandle(key).describe();
    expect(second.runId).not.toBe(first.runId);
    expect(second.status.name).toBe('RUNNING');
    expect((await memoryHandle(key).query(agentMemoryQuery)).entries.map((e) => e.text)).toEqual(['first', 'second']);
    await memoryHandle(key).terminate('test over');
    // Terminated, not completed: read by a query the worker answers by replay.
    expect((await shared.h.agents.memory(key)).map((e) => e.text)).toEqual(['first', 'second']);
  });

  it('continues as new after its update budget, carrying the entries', async () => {
    const key = agentKey();
    await shared.env.client.workflow.start<typeof agentMemoryWorkflow>('agentMemoryWorkflow', {
      workflowId: memoryWorkflowId(key.tenant, key.agent),
      taskQueue: shared.h.taskQueue,
      args: [{ ...key, continueAsNewAfter: 2 }],
    });
    const first = await memoryHandle(key).describe();
    for (const text of ['a', 'b', 'c', 'd']) await keep(key, `run-${text}`, [text]);
    expect((await shared.h.agents.memory(key)).map((e) => e.text)).toEqual(['a', 'b', 'c', 'd']);
    expect(count(await eventTypes(key, first.runId), 'EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW')).toBe(1);
    await memoryHandle(key).terminate('test over');
  });
});
