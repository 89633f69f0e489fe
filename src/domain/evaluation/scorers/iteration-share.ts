import type { Score } from '../case-result';
import type { ScoringFacts } from '../scoring-facts';
import { percent, score } from './score';
import { counted } from '../../text/counted';

export const ITERATION_SHARE = 'iteration_share';

/**
 * Iteration efficiency (seed 001 §6: under half the maximum): iterations / maxIterations at or
 * under the case's share. The value is 1 at or under it, falling linearly to 0 at the maximum.
 * A result without its maximum fails (nothing to compare with).
 */
export function iterationShare(maxShare: number, facts: ScoringFacts): Score {
  if (facts.maxIterations === undefined)
    return score(
      ITERATION_SHARE,
      0,
      false,
      `${counted(facts.iterations, 'iteration')}; the result gives no maximum to compare with`,
    );
  const share = facts.iterations / facts.maxIterations;
  const passed = share <= maxShare;
  const value = passed ? 1 : maxShare >= 1 ? 0 : Math.max(0, (1 - share) / (1 - maxShare));
  return score(
    ITERATION_SHARE,
    value,
    passed,
    `${facts.iterations} of ${counted(facts.maxIterations, 'iteration')} (${percent(share)}), ${passed ? 'within' : 'over'} ${percent(maxShare)}`,
  );
}
