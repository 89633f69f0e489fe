import type { StallState } from '../../shared';

/** `warn`: tell the agent once that it is repeating itself; `stalled`: it did it again. */
export type StallVerdict = 'ok' | 'warn' | 'stalled';

export const freshStallState = (): StallState => ({
  sameCallsInRow: 0,
  formatErrorsInRow: 0,
  warned: false,
  formatWarned: false,
});

/**
 * A turn's tool calls, as one key (the same set of calls again is a repeat). A different call
 * is progress: the counters and the warning reset.
 */
export function afterToolCalls(
  state: StallState,
  turnKey: string,
  threshold: number,
): { state: StallState; verdict: StallVerdict } {
  const repeat = state.lastCallKey === turnKey;
  const next: StallState = {
    lastCallKey: turnKey,
    sameCallsInRow: repeat ? state.sameCallsInRow + 1 : 1,
    formatErrorsInRow: 0,
    warned: repeat ? state.warned : false,
    formatWarned: state.formatWarned,
  };
  return judge(next, next.sameCallsInRow, threshold, 'warned');
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
