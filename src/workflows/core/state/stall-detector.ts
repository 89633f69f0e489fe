import type { StallState } from '../../../domain';
import { MAX_RECENT_TURNS } from '../../../domain/run/continued-state';
import { isSimilar, similarity } from '../../../domain/text/similarity';

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

/** Calls compared by similarity (`similarCallThreshold` below 1): the turn's fingerprint and how alike a repeat must be. */
export interface Likeness {
  shape: string[];
  threshold: number;
}

/** A turn's calls judged: the verdict, what about, how alike the turn is to the last (1 when the keys are equal) and any cycle's period. */
export interface RepeatVerdict {
  state: StallState;
  verdict: StallVerdict;
  kind: RepeatKind;
  /** The turn's key equals the last turn's (the same calls after normalising case and spaces). */
  exact: boolean;
  /** How alike the turn is to the last, 0–1. */
  alike: number;
  /** The cycle's period when the turns end with one, else 0. */
  period: number;
}

/**
 * A turn's tool calls, as one key (the same set of calls again is a repeat; keys compare
 * arguments after normalising, see similarCallKey) and, with `likeness`, as a fingerprint: a turn
 * at least `likeness.threshold` alike to the last is a repeat too (text/similarity.ts). A different
 * call is progress: the repeat counter and its warning reset. The latest `window` turns are
 * searched for a cycle: the last 2p turns being the same (or alike) p turns twice (p ≥ 2,
 * A-B-A-B), which is warned about once, then stalls. A state carried without fingerprints compares
 * keys for the turns it has none for.
 */
export function afterToolCalls(
  state: StallState,
  turnKey: string,
  threshold: number,
  window: number,
  likeness?: Likeness,
): RepeatVerdict {
  const exact = state.lastCallKey === turnKey;
  const alike = exact ? 1 : likeness && state.lastTurnShape ? similarity(likeness.shape, state.lastTurnShape) : 0;
  const repeat = exact || (likeness !== undefined && alike >= likeness.threshold);
  const kept = Math.min(window, MAX_RECENT_TURNS);
  const recentTurns = [...state.recentTurns, turnKey].slice(-kept);
  const shapes = likeness
    ? { lastTurnShape: likeness.shape, recentShapes: [...(state.recentShapes ?? []), likeness.shape].slice(-kept) }
    : {};
  const next: StallState = {
    ...state,
    ...shapes,
    lastCallKey: turnKey,
    sameCallsInRow: repeat ? state.sameCallsInRow + 1 : 1,
    formatErrorsInRow: 0,
    warned: repeat ? state.warned : false,
    recentTurns,
  };
  const judged = judge(next, next.sameCallsInRow, threshold, 'warned');
  const about = { exact, alike };
  if (judged.verdict !== 'ok' || repeat) return { ...judged, ...about, kind: 'repeat', period: 0 };
  const period = cycleLength(recentTurns, sameTurn(recentTurns, next.recentShapes, likeness?.threshold));
  if (!period)
    return { state: { ...judged.state, cycleWarned: false }, verdict: 'ok', kind: 'cycle', ...about, period };
  if (!next.cycleWarned)
    return { state: { ...next, cycleWarned: true }, verdict: 'warn', kind: 'cycle', ...about, period };
  return { state: next, verdict: 'stalled', kind: 'cycle', ...about, period };
}

/** Whether turns i and j of `keys` are the same: equal keys, or (with a threshold) fingerprints at least that alike. */
type SameTurn = (i: number, j: number) => boolean;

function sameTurn(keys: readonly string[], shapes: readonly string[][] | undefined, threshold?: number): SameTurn {
  // Fingerprints cover the newest turns: a state carried without them has fewer than keys.
  const offset = keys.length - (shapes?.length ?? 0);
  const shapeOf = (i: number) => (i >= offset ? shapes?.[i - offset] : undefined);
  return (i, j) => {
    if (keys[i] === keys[j]) return true;
    if (threshold === undefined) return false;
    const a = shapeOf(i);
    const b = shapeOf(j);
    return a !== undefined && b !== undefined && isSimilar(a, b, threshold);
  };
}

/**
 * The period p ≥ 2 of a cycle the keys end with (their last 2p are the same p twice), or 0.
 * `same` compares two turns by index (by default, equal keys).
 */
export function cycleLength(keys: readonly string[], same: SameTurn = (i, j) => keys[i] === keys[j]): number {
  for (let p = 2; 2 * p <= keys.length; p++) {
    const start = keys.length - 2 * p;
    let twice = true;
    for (let i = start; i < start + p && twice; i++) twice = same(i, i + p);
    // A-A-A-A is a repeat (the counter's business), not a cycle of two.
    let varied = false;
    for (let i = start + 1; i < start + p && !varied; i++) varied = !same(start, i);
    if (twice && varied) return p;
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
