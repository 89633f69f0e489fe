import type { StallState } from '../../../domain';
import { MAX_RECENT_TURNS } from '../../../domain/run/continued-state';

/** `warn`: tell the agent once that it is repeating itself; `stalled`: it did it again. */
export type StallVerdict = 'ok' | 'warn' | 'stalled';
/** What the verdict is about: the same calls again and again, or a cycle through a few. */
export type RepeatKind = 'repeat' | 'cycle';

export const freshStallState = (): StallState => ({
  sameCallsInRow: 0,
  formatErrorsInRow: 0,
  warned: false,
  formatWarned: false,
  recentTurns: [],
  cycleWarned: false,
});

/**
 * A turn's tool calls, as one key (the same set of calls again is a repeat; keys compare
 * arguments after normalising, see similarCallKey). A different call is progress: the repeat
 * counter and its warning reset. The latest `window` keys are searched for a cycle: the last
 * 2p turns being the same p turns twice (p ≥ 2, A-B-A-B), which is warned about once, then stalls.
 */
export function afterToolCalls(
  state: StallState,
  turnKey: string,
  threshold: number,
  window: number,
): { state: StallState; verdict: StallVerdict; kind: RepeatKind } {
  const repeat = state.lastCallKey === turnKey;
  const recentTurns = [...state.recentTurns, turnKey].slice(-Math.min(window, MAX_RECENT_TURNS));
  const next: StallState = {
    ...state,
    lastCallKey: turnKey,
    sameCallsInRow: repeat ? state.sameCallsInRow + 1 : 1,
    formatErrorsInRow: 0,
    warned: repeat ? state.warned : false,
    recentTurns,
  };
  const judged = judge(next, next.sameCallsInRow, threshold, 'warned');
  if (judged.verdict !== 'ok' || repeat) return { ...judged, kind: 'repeat' };
  if (!cycleLength(recentTurns))
    return { state: { ...judged.state, cycleWarned: false }, verdict: 'ok', kind: 'cycle' };
  if (!next.cycleWarned) return { state: { ...next, cycleWarned: true }, verdict: 'warn', kind: 'cycle' };
  return { state: next, verdict: 'stalled', kind: 'cycle' };
}

/** The period p ≥ 2 of a cycle the keys end with (their last 2p are the same p twice), or 0. */
export function cycleLength(keys: readonly string[]): number {
  for (let p = 2; 2 * p <= keys.length; p++) {
    const tail = keys.slice(-2 * p);
    const first = tail.slice(0, p);
    // A-A-A-A is a repeat (the counter's business), not a cycle of two.
    if (new Set(first).size > 1 && first.every((key, i) => key === tail[p + i])) return p;
  }
  return 0;
}

/** A reply the strategy could not read; repeated ones stall the run like repeated calls. */
export function afterFormatError(state: StallState, threshold: number): { state: StallState; verdict: StallVerdict } {
  const next: StallState = { ...state, formatErrorsInRow: state.formatErrorsInRow + 1 };
  return judge(next, next.formatErrorsInRow, threshold, 'formatWarned');
}

/** A reply that was read and acted on: format errors in a row end, and so does that warning. */
export const afterReadableReply = (state: StallState): StallState => ({
  ...state,
  formatErrorsInRow: 0,
  formatWarned: false,
});

function judge(
  state: StallState,
  inRow: number,
  threshold: number,
  flag: 'warned' | 'formatWarned',
): { state: StallState; verdict: StallVerdict } {
  if (inRow < threshold) return { state, verdict: 'ok' };
  if (!state[flag]) return { state: { ...state, [flag]: true }, verdict: 'warn' };
  return { state, verdict: 'stalled' };
}
