import { describe, expect, it } from 'vitest';
import { AgentInput } from '../../../../src/domain';
import {
  AgentMemoryState,
  ForgetMemoryRequest,
  MAX_LEARNINGS_PER_UPDATE,
  MAX_MEMORY_ENTRIES,
  MAX_MEMORY_KEY_CHARS,
  memoryWorkflowId,
  RememberLearningsRequest,
} from '../../../../src/domain/planning/agent-memory';
import { MAX_LEARNING_CHARS } from '../../../../src/domain/planning/plan-verdicts';
import { emptyMemoryState, forget, idleLeft, remember } from '../../../../src/workflows/memory/agent-memory-state';
import { memoryKeyOf, memoryNote, rankedMemoryNote } from '../../../../src/workflows/memory/run-memory';

const key = { tenant: 'acme', agent: 'support' };
const ids = () => {
  let n = 0;
  return () => `e${++n}`;
};
const learn = (runId: string, ...texts: string[]) => ({ runId, learnings: texts.map((text) => ({ text })) });

describe('memoryWorkflowId', () => {
  it('maps no two (tenant, agent) pairs to the same id, separators in the names included', () => {
    const pairs: Array<[string | undefined, string]> = [
      ['a', 'b:c'],
      ['a:b', 'c'],
      ['a-b', 'c'],
      ['a', 'b-c'],
      ['1:a', 'b'],
      ['1', 'a:b'],
      ['ab', 'c'],
      ['a', 'bc'],
      ['default', 'support'],
      [undefined, 'support'],
      ['t7', 'default:support'],
      ['acme', 'support'],
    ];
    const idsSeen = new Set(pairs.map(([t, a]) => memoryWorkflowId(t, a)));
    expect(idsSeen.size).toBe(pairs.length);
    expect(memoryWorkflowId('acme', 'support')).toBe('thoughtline-memory-4:acme:support');
    // Runs without a tenant keep the id their memory always had; the tenant called `default` has another.
    expect(memoryWorkflowId(undefined, 'support')).toBe('thoughtline-memory-7:default:support');
    expect(memoryWorkflowId('default', 'support')).toBe('thoughtline-memory-t7:default:support');
  });

  it('keys a run by its caller tenant (none without one) and its agent id (else its name); refuses a key past the bound', () => {
    const input = (extra: object) => AgentInput.parse({ task: 't', ...extra });
    expect(memoryKeyOf(input({ agentName: 'helper' }))).toEqual({ agent: 'helper' });
    expect(memoryKeyOf(input({ agentName: 'helper', caller: { id: 'u', tenant: 'default' } }))).toEqual({
      tenant: 'default',
      agent: 'helper',
    });
    expect(memoryKeyOf(input({ agentName: 'helper', caller: { id: 'u', tenant: 'acme' } }))).toEqual({
      tenant: 'acme',
      agent: 'helper',
    });
    expect(memoryKeyOf(input({ agent: 'support-bot', caller: { id: 'u', tenant: 'acme' } }))).toEqual({
      tenant: 'acme',
      agent: 'support-bot',
    });
    expect(memoryKeyOf(input({ caller: { id: 'u', tenant: 't'.repeat(101) } }))).toMatch(/1–100 characters/);
    const widest = '😀'.repeat(MAX_MEMORY_KEY_CHARS / 2);
    expect(
      memoryKeyOf(input({ agentName: 'é'.repeat(MAX_MEMORY_KEY_CHARS), caller: { id: 'u', tenant: widest } })),
    ).toEqual({
      tenant: widest,
      agent: 'é'.repeat(MAX_MEMORY_KEY_CHARS),
    });
    // Temporal takes workflow ids of up to 1,000 bytes.
    expect(
      Buffer.byteLength(memoryWorkflowId('\u4e00'.repeat(MAX_MEMORY_KEY_CHARS), '\u4e00'.repeat(MAX_MEMORY_KEY_CHARS))),
    ).toBeLessThanOrEqual(1_000);
  });
});

describe('remember', () => {
  it('stores each new text once with an id, the run and the workflow time; identical texts are duplicates', () => {
    const newId = ids();
    const first = remember(emptyMemoryState(key), learn('run-1', 'use the v2 API', 'use the v2 API'), newId, 0);
    expect(first.result).toMatchObject({ duplicates: 1, dropped: 0, count: 1, limit: MAX_MEMORY_ENTRIES });
    expect(first.state.entries).toEqual([
      { id: 'e1', text: 'use the v2 API', fromRun: 'run-1', at: '1970-01-01T00:00:00.000Z' },
    ]);
    const second = remember(first.state, learn('run-2', 'use the v2 API', 'retry on 429'), newId, 1_000);
    expect(second.result.added.map((e) => [e.id, e.text, e.fromRun])).toEqual([['e2', 'retry on 429', 'run-2']]);
    expect(second.result.duplicates).toBe(1);
    expect(second.state.lastChangedAt).toBe(1_000);
    // Nothing new: the memory is unchanged, and its idle clock too.
    const third = remember(second.state, learn('run-3', 'retry on 429'), newId, 5_000);
    expect(third.state).toEqual(second.state);
    expect(AgentMemoryState.safeParse(third.state).success).toBe(true);
  });

  it(`keeps at most ${MAX_MEMORY_ENTRIES} entries, dropping the oldest`, () => {
    const newId = ids();
    let state = emptyMemoryState(key);
    for (let batch = 0; batch < MAX_MEMORY_ENTRIES / MAX_LEARNINGS_PER_UPDATE; batch++) {
      const texts = Array.from(
        { length: MAX_LEARNINGS_PER_UPDATE },
        (_, i) => `t${batch * MAX_LEARNINGS_PER_UPDATE + i}`,
      );
      state = remember(state, learn(`run-${batch}`, ...texts), newId, batch).state;
    }
    expect(state.entries).toHaveLength(MAX_MEMORY_ENTRIES);
    const over = remember(state, learn('run-late', 'late-1', 'late-2', 'late-3'), newId, 99);
    expect(over.result).toMatchObject({ dropped: 3, count: MAX_MEMORY_ENTRIES });
    expect(over.result.added.map((e) => e.text)).toEqual(['late-1', 'late-2', 'late-3']);
    expect(over.state.entries.map((e) => e.text).slice(0, 2)).toEqual(['t3', 't4']);
    expect(over.state.entries.at(-1)!.text).toBe('late-3');
    expect(AgentMemoryState.safeParse(over.state).success).toBe(true);
  });
});

describe('forget', () => {
  it('removes the named entries (unknown ids ignored) or all of them', () => {
    const state = remember(emptyMemoryState(key), learn('r', 'a', 'b', 'c'), ids(), 0).state;
    const some = forget(state, { ids: ['e1', 'e3', 'nope'] }, 10);
    expect(some.result).toEqual({ forgotten: ['e1', 'e3'], count: 1 });
    expect(some.state.entries.map((e) => e.text)).toEqual(['b']);
    expect(some.state.lastChangedAt).toBe(10);
    expect(forget(some.state, { all: true }, 20).result).toEqual({ forgotten: ['e2'], count: 0 });
    expect(forget(some.state, { ids: ['nope'] }, 30).state).toEqual(some.state);
  });

  it('closes for idleness idleMs after the later of its start and its last change', () => {
    const state = { ...emptyMemoryState(key), lastChangedAt: 5_000 };
    expect(idleLeft(state, 1_000, 6_000, 10_000)).toBe(9_000);
    expect(idleLeft(emptyMemoryState(key), 1_000, 6_000, 10_000)).toBe(5_000);
  });
});

describe('the wire schemas', () => {
  it(`take ${MAX_LEARNINGS_PER_UPDATE} learnings of ${MAX_LEARNING_CHARS} characters, and refuse one more of either, a fromRun, or an empty forget`, () => {
    const at = (n: number, chars: number) => ({
      runId: 'r',
      learnings: Array.from({ length: n }, (_, i) => ({ text: `${i}`.padEnd(chars, 'x') })),
    });
    expect(RememberLearningsRequest.safeParse(at(MAX_LEARNINGS_PER_UPDATE, MAX_LEARNING_CHARS)).success).toBe(true);
    expect(RememberLearningsRequest.safeParse(at(MAX_LEARNINGS_PER_UPDATE + 1, 10)).success).toBe(false);
    expect(RememberLearningsRequest.safeParse(at(1, MAX_LEARNING_CHARS + 1)).success).toBe(false);
    expect(RememberLearningsRequest.safeParse(at(0, 1)).success).toBe(false);
    expect(RememberLearningsRequest.safeParse({ runId: 'r', learnings: [{ text: 'a', fromRun: 'x' }] }).success).toBe(
      false,
    );
    expect(ForgetMemoryRequest.safeParse({ ids: [] }).success).toBe(false);
    expect(ForgetMemoryRequest.safeParse({ all: false }).success).toBe(false);
    expect(ForgetMemoryRequest.safeParse({ all: true }).success).toBe(true);
  });
});

describe('memoryNote', () => {
  it('says how many learnings from how many runs, one numbered line each, or that there are none yet', () => {
    expect(memoryNote('support', [])).toBe('Memory: no learnings yet from earlier runs of agent support.');
    expect(
      memoryNote('support', [
        { text: 'use v2', fromRun: 'run-1' },
        { text: 'retry on 429', fromRun: 'run-2' },
        { text: 'cache tokens', fromRun: 'run-2' },
      ]),
    ).toBe(
      'Memory: 3 learnings from 2 earlier runs of agent support:\n1. use v2 (run run-1)\n2. retry on 429 (run run-2)\n3. cache tokens (run run-2)',
    );
    expect(memoryNote('a', [{ text: 'x', fromRun: 'r' }])).toBe(
      'Memory: 1 learning from an earlier run of agent a:\n1. x (run r)',
    );
  });
});

describe('rankedMemoryNote', () => {
  const two = [
    { text: 'use v2', fromRun: 'run-1' },
    { text: 'retry on 429', fromRun: 'run-2' },
  ];
  it('says how many of how many were recalled, and in which order', () => {
    expect(rankedMemoryNote('support', two, 30, 1)).toBe(
      'Memory: 2 of 30 learnings from 2 earlier runs of agent support, ranked by relevance to this task (1 matches it; the rest are the newest):\n1. use v2 (run run-1)\n2. retry on 429 (run run-2)',
    );
    expect(rankedMemoryNote('support', two, 2, 2)).toContain(
      '2 of 2 learnings from 2 earlier runs of agent support, ranked by relevance to this task (2 match it):',
    );
    expect(rankedMemoryNote('support', two, 5, 0)).toContain(
      'agent support, newest first, as none matches the words of this task:\n1. use v2',
    );
    expect(rankedMemoryNote('support', [], 0, 0)).toBe('Memory: no learnings yet from earlier runs of agent support.');
  });
});
