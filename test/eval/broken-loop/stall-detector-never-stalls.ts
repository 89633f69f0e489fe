// The stall detector with its judgement taken out: every turn counts as progress. The loop gate's
// test bundles it in place of src/workflows/core/state/stall-detector.ts, a loop behaviour broken on purpose.
import * as real from '../../../src/workflows/core/state/stall-detector';

export type { RepeatKind, StallVerdict } from '../../../src/workflows/core/state/stall-detector';
export const freshStallState = real.freshStallState;
export const cycleLength = real.cycleLength;
export const afterFormatError = real.afterFormatError;
export const afterReadableReply = real.afterReadableReply;

export function afterToolCalls(
  ...args: Parameters<typeof real.afterToolCalls>
): ReturnType<typeof real.afterToolCalls> {
  return { ...real.afterToolCalls(...args), verdict: 'ok' };
}
