import type { TerminationReason } from '../shared';

/** What stop conditions may look at; grows as conditions are added, never holds I/O. */
export interface LoopState {
  iteration: number;
}

/** A named predicate: the reason it stops the run, or undefined to go on. Checked before each model call. */
export interface StopCondition {
  name: string;
  check(state: LoopState): TerminationReason | undefined;
}

export const reachedMaxIterations = (maxIterations: number): StopCondition => ({
  name: `maxIterations(${maxIterations})`,
  check: (state) => (state.iteration >= maxIterations ? 'max_iterations' : undefined),
});

export function firstStop(conditions: readonly StopCondition[], state: LoopState): TerminationReason | undefined {
  for (const condition of conditions) {
    const reason = condition.check(state);
    if (reason) return reason;
  }
  return undefined;
}
