import type { ReasoningChain } from './chain';

/**
 * How many steps the run has recorded, including those of earlier Temporal runs that its chain
 * no longer carries (`earlier`). The last step's number, since hidden steps may be left out of a view.
 */
export function chainLength(chain: Pick<ReasoningChain, 'steps' | 'earlier'>): number {
  const last = chain.steps[chain.steps.length - 1];
  return last ? last.stepNumber : (chain.earlier?.throughStep ?? 0);
}
