import { describe, expect, it } from 'vitest';
import { StallState } from '../../../../src/domain';
import { MAX_RECENT_TURNS } from '../../../../src/domain/run/continued-state';
import { turnFingerprint } from '../../../../src/domain/text/similarity';
import {
  afterFormatError,
  afterReadableReply,
  afterToolCalls,
  cycleLength,
  freshStallState,
  type StallVerdict,
} from '../../../../src/workflows/core/state/stall-detector';

type Event = { call: string } | 'format_error' | 'readable';

/** Feeds events through the detector from a fresh state; returns each verdict and the last state. */
function feed(
  events: readonly Event[],
  threshold = 3,
  window = 8,
): { verdicts: Array<StallVerdict | '-'>; state: StallState } {
  let state = freshStallState();
  const verdicts: Array<StallVerdict | '-'> = [];
  for (const event of events) {
    if (event === 'readable') {
      state = afterReadableReply(state);
      verdicts.push('-');
      continue;
    }
    const judged =
      event === 'format_error'
        ? afterFormatError(state, threshold)
        : afterToolCalls(state, event.call, threshold, window);
    state = judged.state;
    verdicts.push(judged.verdict);
  }
  return { verdicts, state };
}

const a = { call: 'lookup#a' };
const b = { call: 'lookup#b' };

describe('stall detector: repeated tool calls', () => {
  it('starts fresh', () => {
    expect(freshStallState()).toEqual({
      sameCallsInRow: 0,
      formatErrorsInRow: 0,
      warned: false,
      formatWarned: false,
      recentTurns: [],
      cycleWarned: false,
    });
  });

  it('is ok below the threshold, warns once at it, and stalls on the next repeat', () => {
    const { verdicts, state } = feed([a, a, a, a]);
    expect(verdicts).toEqual(['ok', 'ok', 'warn', 'stalled']);
    expect(state).toEqual({
      lastCallKey: 'lookup#a',
      sameCallsInRow: 4,
      formatErrorsInRow: 0,
      warned: true,
      formatWarned: false,
      recentTurns: ['lookup#a', 'lookup#a', 'lookup#a', 'lookup#a'],
      cycleWarned: false,
    });
  });

  it('keeps reporting stalled on further repeats (it never warns twice)', () => {
    expect(feed([a, a, a, a, a, a]).verdicts).toEqual(['ok', 'ok', 'warn', 'stalled', 'stalled', 'stalled']);
  });

  it('honours the threshold', () => {
    expect(feed([a, a, a], 2).verdicts).toEqual(['ok', 'warn', 'stalled']);
    expect(feed([a, a, a, a, a, a], 5).verdicts).toEqual(['ok', 'ok', 'ok', 'ok', 'warn', 'stalled']);
  });

  it('different calls that do not go round in a cycle never stall', () => {
    const c = { call: 'lookup#c' };
    const d = { call: 'lookup#d' };
    expect(feed([a, b, c, d, a, c, b, d]).verdicts).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
  });

  it('a different call resets the count and the warning', () => {
    const { verdicts, state } = feed([a, a, a, b, a, a, a, a]);
    // After the warning, b is progress: a must repeat to the threshold again, and is warned again.
    expect(verdicts).toEqual(['ok', 'ok', 'warn', 'ok', 'ok', 'ok', 'warn', 'stalled']);
    expect(state.sameCallsInRow).toBe(4);
  });

  it('a different call right after the warning resets the warning', () => {
    const { verdicts, state } = feed([a, a, a, b]);
    expect(verdicts).toEqual(['ok', 'ok', 'warn', 'ok']);
    expect(state).toEqual({
      lastCallKey: 'lookup#b',
      sameCallsInRow: 1,
      formatErrorsInRow: 0,
      warned: false,
      formatWarned: false,
      recentTurns: ['lookup#a', 'lookup#a', 'lookup#a', 'lookup#b'],
      cycleWarned: false,
    });
  });

  it('does not mutate the state it is given', () => {
    const before = freshStallState();
    const snapshot = structuredClone(before);
    afterToolCalls(before, 'k', 3, 8);
    afterFormatError(before, 3);
    afterReadableReply(before);
    expect(before).toEqual(snapshot);
  });
});

describe('stall detector: format errors', () => {
  it('warns at the threshold and stalls on the next unreadable reply', () => {
    const { verdicts, state } = feed(['format_error', 'format_error', 'format_error', 'format_error']);
    expect(verdicts).toEqual(['ok', 'ok', 'warn', 'stalled']);
    expect(state).toMatchObject({ formatErrorsInRow: 4, formatWarned: true, warned: false });
  });

  it('a readable reply ends the run of format errors', () => {
    expect(feed(['format_error', 'format_error', 'readable', 'format_error', 'format_error']).verdicts).toEqual([
      'ok',
      'ok',
      '-',
      'ok',
      'ok',
    ]);
  });

  it('a tool call ends the run of format errors', () => {
    const { verdicts, state } = feed(['format_error', 'format_error', a, 'format_error', 'format_error']);
    expect(verdicts).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(state.formatErrorsInRow).toBe(2);
  });

  it('a format error between repeats does not reset the repeated-call count', () => {
    const { verdicts } = feed([a, a, 'format_error', a]);
    expect(verdicts).toEqual(['ok', 'ok', 'ok', 'warn']);
  });

  it('a readable reply keeps the repeated-call count', () => {
    const { state } = feed([a, a, 'readable']);
    expect(state).toMatchObject({ lastCallKey: 'lookup#a', sameCallsInRow: 2 });
  });
  it('keeps the repeat warning and the format warning apart', () => {
    let state = freshStallState();
    for (let i = 0; i < 3; i++) state = afterToolCalls(state, 'lookup#a', 3, 8).state;
    expect(state.warned).toBe(true);
    const verdicts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const judged = afterFormatError(state, 3);
      state = judged.state;
      verdicts.push(judged.verdict);
    }
    expect(verdicts).toEqual(['ok', 'ok', 'warn']);
  });
});

describe('stall detector: cycles (seed 001 §4.3)', () => {
  const c = { call: 'lookup#c' };

  it('warns at A-B-A-B and stalls when the agent goes round again', () => {
    expect(feed([a, b, a, b, a]).verdicts).toEqual(['ok', 'ok', 'ok', 'warn', 'stalled']);
  });

  it('catches a cycle of three (A-B-C-A-B-C)', () => {
    expect(feed([a, b, c, a, b, c]).verdicts).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'warn']);
  });

  it('looks no further back than the window', () => {
    // A cycle of three needs six turns; a window of four cannot hold it.
    expect(feed([a, b, c, a, b, c], 3, 4).verdicts).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    expect(feed([a, b, a, b], 3, 4).verdicts).toEqual(['ok', 'ok', 'ok', 'warn']);
  });

  it('a turn that breaks the cycle resets its warning', () => {
    const { verdicts, state } = feed([a, b, a, b, c]);
    expect(verdicts).toEqual(['ok', 'ok', 'ok', 'warn', 'ok']);
    expect(state.cycleWarned).toBe(false);
  });

  it('finds the period of a cycle the keys end with', () => {
    expect(cycleLength(['x', 'a', 'b', 'a', 'b'])).toBe(2);
    expect(cycleLength(['a', 'a', 'a', 'a'])).toBe(0);
    expect(cycleLength(['a', 'b', 'c', 'a', 'b'])).toBe(0);
  });
});

describe('stall detector: similar calls (likeness)', () => {
  const turn = (query: string) => ({
    key: `search#${query}`,
    likeness: { shape: turnFingerprint([{ name: 'search', input: { query } }]), threshold: 0.8 },
  });

  it('counts a turn alike to the last as a repeat, and says how alike; without likeness it is progress', () => {
    const first = turn('weather in Paris');
    const second = turn('Paris weather');
    const s1 = afterToolCalls(freshStallState(), first.key, 2, 8, first.likeness);
    const s2 = afterToolCalls(s1.state, second.key, 2, 8, second.likeness);
    expect(s2).toMatchObject({ verdict: 'warn', kind: 'repeat', exact: false, alike: 1 });
    expect(s2.state.sameCallsInRow).toBe(2);
    expect(s2.state.recentShapes).toHaveLength(2);
    const keysOnly = afterToolCalls(afterToolCalls(freshStallState(), first.key, 2, 8).state, second.key, 2, 8);
    expect(keysOnly).toMatchObject({ verdict: 'ok', alike: 0 });
    expect(keysOnly.state.lastTurnShape).toBeUndefined();
  });

  it('a different number is progress', () => {
    const first = turn('Paris weather');
    const later = turn('Paris weather in 3 days');
    const s1 = afterToolCalls(freshStallState(), first.key, 2, 8, first.likeness);
    expect(afterToolCalls(s1.state, later.key, 2, 8, later.likeness)).toMatchObject({ verdict: 'ok', alike: 0 });
  });

  it('the reverse request is progress, not a repeat: the same words in other roles', () => {
    const there = turn('latest daily exchange rate to convert USD to EUR for the invoice');
    const back = turn('latest daily exchange rate to convert EUR to USD for the invoice');
    const s1 = afterToolCalls(freshStallState(), there.key, 2, 8, there.likeness);
    expect(afterToolCalls(s1.state, back.key, 2, 8, back.likeness)).toMatchObject({ verdict: 'ok', alike: 0 });
    // Reworded with the same roles, it is a repeat.
    const reworded = turn('for the invoice: latest daily exchange rate, convert from USD into EUR');
    expect(afterToolCalls(s1.state, reworded.key, 2, 8, reworded.likeness)).toMatchObject({ verdict: 'warn' });
  });

  it('finds a cycle of alike turns (A-B-A′-B′)', () => {
    const turns = [turn('weather in Paris'), turn('lyon hotels'), turn('Paris weather'), turn('hotels in Lyon')];
    let state = freshStallState();
    const verdicts: string[] = [];
    for (const t of turns) {
      const judged = afterToolCalls(state, t.key, 3, 8, t.likeness);
      state = judged.state;
      verdicts.push(`${judged.verdict}/${judged.period}`);
    }
    expect(verdicts).toEqual(['ok/0', 'ok/0', 'ok/0', 'warn/2']);
  });

  it('a state carried without fingerprints compares keys for its older turns, then fingerprints', () => {
    const carried: StallState = {
      ...freshStallState(),
      lastCallKey: 'search#old',
      sameCallsInRow: 1,
      recentTurns: ['search#x', 'search#old'],
    };
    const next = turn('Paris weather');
    const judged = afterToolCalls(carried, next.key, 2, 8, next.likeness);
    expect(judged).toMatchObject({ verdict: 'ok', alike: 0 });
    expect(judged.state.recentTurns).toHaveLength(3);
    expect(judged.state.recentShapes).toHaveLength(1);
    // The carried state still parses, and so does one with fingerprints at their bound.
    expect(StallState.parse(carried).recentShapes).toBeUndefined();
    const full = { ...judged.state, recentShapes: Array.from({ length: MAX_RECENT_TURNS }, () => next.likeness.shape) };
    expect(StallState.safeParse(full).success).toBe(true);
    expect(StallState.safeParse({ ...full, recentShapes: [...full.recentShapes, next.likeness.shape] }).success).toBe(
      false,
    );
  });
});
