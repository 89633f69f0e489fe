import { describe, expect, it } from 'vitest';
import type { ModelMessage } from '../../../../src/domain';
import { contextSummaryBlock } from '../../../../src/domain/model/context-summary';
import { RunState } from '../../../../src/workflows/core/state/run-state';

const ELIDED = '[elided to fit the context window]';
const NOTE = (n: number) =>
  `[Context note: ${n} earlier turns were removed to fit the context window; the run's chain keeps them.]`;

const task = (text = 'The task'): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const calls = (...ids: string[]): ModelMessage => ({
  role: 'assistant',
  content: ids.map((id) => ({ type: 'tool_use' as const, id, name: 'lookup', input: { key: id } })),
});
const results = (...entries: Array<[id: string, size: number]>): ModelMessage => ({
  role: 'user',
  content: entries.map(([id, size]) => ({
    type: 'tool_result' as const,
    toolUseId: id,
    content: id.repeat(size),
    isError: false,
  })),
});
/** A text-ReAct observation turn. */
const observation = (text: string): ModelMessage => ({
  role: 'user',
  content: [{ type: 'text', text: `Observation: ${text}` }],
});

/** Which tool results (by id) and observations are still whole. */
const whole = (state: RunState): string[] =>
  state.messages.flatMap((m) =>
    m.role !== 'user'
      ? []
      : m.content.flatMap((b) => {
          if (b.type === 'tool_result') return b.content === ELIDED ? [] : [b.toolUseId];
          return b.text.includes(ELIDED) ? [] : [b.text.slice(0, 20)];
        }),
  );

/** task, then four turns of tool calls with a 1,000-character result each (r1 oldest). */
function fourTurns(): RunState {
  return new RunState(
    'm',
    [
      task(),
      calls('1'),
      results(['1', 1000]),
      calls('2'),
      results(['2', 1000]),
      calls('3'),
      results(['3', 1000]),
      calls('4'),
      results(['4', 1000]),
    ],
    0,
  );
}

describe('RunState.compactToFit', () => {
  it('does nothing when the conversation already fits', () => {
    const state = fourTurns();
    const before = JSON.stringify(state.messages);
    expect(state.compactToFit(before.length)).toBe(0);
    expect(JSON.stringify(state.messages)).toBe(before);
  });

  it('elides the oldest tool result first and stops as soon as the conversation fits', () => {
    const state = fourTurns();
    const size = state.contextChars();
    // Eliding one 1,000-character result frees a bit under 1,000 characters: one is enough.
    expect(state.compactToFit(size - 500)).toBe(1);
    expect(whole(state)).toEqual(['The task', '2', '3', '4']);
    expect(state.contextChars()).toBeLessThanOrEqual(size - 500);
    expect(state.contextChars()).toBeGreaterThan(size - 1000);
  });

  it('elides further results, oldest first, only as far as needed', () => {
    const state = fourTurns();
    const size = state.contextChars();
    expect(state.compactToFit(size - 1500)).toBe(2);
    expect(whole(state)).toEqual(['The task', '3', '4']);
    expect(state.contextChars()).toBeLessThanOrEqual(size - 1500);
  });

  it('when eliding is not enough, drops the oldest whole turns, keeping the task and the last two user turns, and says so', () => {
    const state = fourTurns();
    // Two results elided, then two whole turns (call + results) dropped: 4 in all.
    expect(state.compactToFit(10)).toBe(4);
    expect(state.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'The task' },
          { type: 'text', text: NOTE(2) },
        ],
      },
      calls('3'),
      results(['3', 1000]),
      calls('4'),
      results(['4', 1000]),
    ]);
    expect(state.droppedTurns).toBe(2);
  });

  it('drops only as many turns as needed, after eliding what it can', () => {
    const state = fourTurns();
    const elided = (id: string): ModelMessage => ({
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: id, content: ELIDED, isError: false }],
    });
    const expected: ModelMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'The task' },
          { type: 'text', text: NOTE(1) },
        ],
      },
      calls('2'),
      elided('2'),
      calls('3'),
      results(['3', 1000]),
      calls('4'),
      results(['4', 1000]),
    ];
    // Exactly the size after eliding r1 and r2 and dropping the first turn.
    expect(state.compactToFit(JSON.stringify(expected).length)).toBe(3);
    expect(state.messages).toEqual(expected);
  });

  it('keeps one up-to-date note on the task as turns keep being dropped', () => {
    const state = fourTurns();
    state.compactToFit(10);
    state.messages.push(calls('5'), results(['5', 1000]));
    // r3 is now old enough to elide; then one more turn goes.
    expect(state.compactToFit(10)).toBe(2);
    expect(state.droppedTurns).toBe(3);
    expect(state.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'The task' },
        { type: 'text', text: NOTE(3) },
      ],
    });
    expect(whole(state)).toEqual(['The task', NOTE(3).slice(0, 20), '4', '5']);
  });

  it('returns 0 and changes nothing when there is nothing left to remove', () => {
    const state = fourTurns();
    state.compactToFit(10);
    const after = JSON.stringify(state.messages);
    expect(state.compactToFit(10)).toBe(0);
    expect(JSON.stringify(state.messages)).toBe(after);
  });

  it('counts each elided block, several per turn, and keeps the call ids', () => {
    const state = new RunState(
      'm',
      [
        task(),
        calls('a', 'b'),
        results(['a', 800], ['b', 800]),
        calls('c'),
        results(['c', 800]),
        calls('d'),
        results(['d', 800]),
      ],
      0,
    );
    const size = state.contextChars();
    // Eliding a alone is not enough; a and b are.
    expect(state.compactToFit(size - 1000)).toBe(2);
    expect(whole(state)).toEqual(['The task', 'c', 'd']);
    const elidedIds = state.messages.flatMap((m) =>
      m.role === 'user'
        ? m.content.flatMap((b) => (b.type === 'tool_result' && b.content === ELIDED ? [b.toolUseId] : []))
        : [],
    );
    expect(elidedIds).toEqual(['a', 'b']);
    expect(state.messages).toHaveLength(7);
  });

  it('leaves text in old user turns alone, except text-ReAct observations', () => {
    const conversation = (first: string): ModelMessage[] => [
      task(),
      { role: 'assistant', content: [{ type: 'text', text: 'Action: lookup' }] },
      observation(first),
      { role: 'assistant', content: [{ type: 'text', text: 'Thought: hm' }] },
      { role: 'user', content: [{ type: 'text', text: 'A note from the run: '.padEnd(1000, 'y') }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Action: lookup' }] },
      observation('z'),
      { role: 'assistant', content: [{ type: 'text', text: 'Action: lookup' }] },
      observation('w'),
    ];
    const state = new RunState('m', conversation('x'.repeat(1000)), 0);
    // A limit that eliding the old observation meets; the old note is not an observation.
    const target = conversation(ELIDED);
    expect(state.compactToFit(JSON.stringify(target).length)).toBe(1);
    expect(state.messages).toEqual(target);
  });

  it('with only one user turn after the task, elides nothing (that turn is among the last two)', () => {
    const state = new RunState(
      'm',
      [task(), calls('1'), results(['1', 5000]), { role: 'assistant', content: [{ type: 'text', text: 'thinking' }] }],
      0,
    );
    expect(state.compactToFit(100)).toBe(0);
    expect(whole(state)).toEqual(['The task', '1']);
  });

  it('with two user turns after the task, elides nothing', () => {
    const state = new RunState('m', [task(), calls('1'), results(['1', 5000]), calls('2'), results(['2', 5000])], 0);
    expect(state.compactToFit(100)).toBe(0);
    expect(whole(state)).toEqual(['The task', '1', '2']);
  });

  it('does not elide a result twice across calls', () => {
    const state = fourTurns();
    const size = state.contextChars();
    expect(state.compactToFit(size - 500)).toBe(1);
    // The next squeeze starts with the next-oldest result, not the one already elided.
    expect(state.compactToFit(state.contextChars() - 1)).toBe(1);
    expect(whole(state)).toEqual(['The task', '3', '4']);
  });
});

describe('RunState read-only cache', () => {
  const entry = (key: string, chars: number) => ({
    key,
    stepId: `s-${key}`,
    content: 'c'.repeat(chars),
    isError: false,
    result: null,
  });
  const keys = (state: RunState) => state.carried('r').readOnlyCache.map((c) => c.key);

  it('keeps at most 100 observations, the oldest going first', () => {
    const state = new RunState('m', [task()], 0);
    for (let i = 0; i < 101; i++) state.remember(entry(`k${i}`, 1));
    expect(keys(state)).toHaveLength(100);
    expect(keys(state)[0]).toBe('k1');
  });

  it('bounded by bytes: keeps entries adding up to the limit, evicts the oldest at one byte over', () => {
    const one = JSON.stringify(entry('a', 1_000)).length;
    const state = new RunState('m', [task()], 0);
    state.limitCacheBytes(3 * one);
    for (const k of ['a', 'b', 'c']) state.remember(entry(k, 1_000));
    expect(keys(state)).toEqual(['a', 'b', 'c']);
    expect(state.cacheBytes()).toBe(3 * one);
    state.remember(entry('d', 1_001));
    expect(keys(state)).toEqual(['c', 'd']);
    expect(state.cacheBytes()).toBeLessThanOrEqual(3 * one);
  });

  it('does not keep an observation over the bound on its own, and bounds a restored cache at once', () => {
    const state = new RunState('m', [task()], 0);
    for (const k of ['a', 'b']) state.remember(entry(k, 1_000));
    const restored = RunState.restore(state.carried('r'));
    restored.limitCacheBytes(JSON.stringify(entry('b', 1_000)).length);
    expect(keys(restored)).toEqual(['b']);
    restored.remember(entry('huge', 5_000));
    expect(keys(restored)).toEqual([]);
    expect(restored.cached('huge')).toBeUndefined();
  });

  it('is unbounded in bytes until limitCacheBytes', () => {
    const state = new RunState('m', [task()], 0);
    for (let i = 0; i < 5; i++) state.remember(entry(`k${i}`, 100_000));
    expect(keys(state)).toHaveLength(5);
  });
});

describe('RunState.turnsToDrop and dropTurns (the turns a summary replaces)', () => {
  it('turnsToDrop says how many turns compactToFit would drop when nothing is elided, and changes nothing', () => {
    const state = fourTurns();
    const before = JSON.stringify(state.messages);
    const withoutTwo = JSON.stringify([task(), calls('3'), results(['3', 1000]), calls('4'), results(['4', 1000])]);
    expect(state.turnsToDrop(withoutTwo.length)).toBe(2);
    expect(state.turnsToDrop(withoutTwo.length + 2_000)).toBe(1);
    // The task and the last two user turns always stay.
    expect(state.turnsToDrop(10)).toBe(2);
    expect(JSON.stringify(state.messages)).toBe(before);
    expect(state.oldestTurns(2)).toEqual([calls('1'), results(['1', 1000]), calls('2'), results(['2', 1000])]);
  });

  it('turnsToDrop agrees with measuring the JSON again after each dropped turn, at every limit around each size', () => {
    const sizes = [10, 1000, 37, 2500, 1, 640, 90, 3000];
    const messages = [task(), ...sizes.flatMap((n, i) => [calls(`${i}`), results([`${i}`, n])])];
    const state = new RunState('m', messages, 0);
    const naive = (maxChars: number): number => {
      const left = [...messages];
      let turns = 0;
      while (JSON.stringify(left).length > maxChars && left.length > 5) (left.splice(1, 2), (turns += 1));
      return turns;
    };
    const limits = [0, 1, 100];
    for (let k = 0; k <= sizes.length; k++) {
      const size = JSON.stringify([messages[0], ...messages.slice(1 + 2 * k)]).length;
      limits.push(size - 1, size, size + 1);
    }
    for (const limit of limits) expect(state.turnsToDrop(limit), `limit ${limit}`).toBe(naive(limit));
  });

  it('puts the summary after the task in place of the dropped turns, and a later summary replaces it and any note', () => {
    const state = fourTurns();
    state.dropTurns(1);
    expect(state.contextSummary).toBeUndefined();
    state.dropTurns(1, 'r1 and r2 were looked up.');
    expect(state.messages.slice(1)).toEqual([calls('3'), results(['3', 1000]), calls('4'), results(['4', 1000])]);
    expect(state.messages[0]?.content).toEqual([
      { type: 'text', text: 'The task' },
      { type: 'text', text: contextSummaryBlock('r1 and r2 were looked up.', 2) },
    ]);
    expect(state.contextSummary).toBe('r1 and r2 were looked up.');
    state.messages.push(calls('5'), results(['5', 1000]));
    state.dropTurns(1, 'r1 to r3 were looked up.');
    expect(state.droppedTurns).toBe(3);
    expect(state.messages[0]?.content).toEqual([
      { type: 'text', text: 'The task' },
      { type: 'text', text: contextSummaryBlock('r1 to r3 were looked up.', 3) },
    ]);
  });

  it('keeps an earlier summary when later turns go without one, with the note after it', () => {
    const state = fourTurns();
    state.dropTurns(1, 'r1 was looked up.');
    state.dropTurns(1);
    expect(state.messages[0]?.content).toEqual([
      { type: 'text', text: 'The task' },
      { type: 'text', text: contextSummaryBlock('r1 was looked up.', 1) },
      { type: 'text', text: NOTE(2) },
    ]);
    expect(state.contextSummary).toBe('r1 was looked up.');
  });
});
