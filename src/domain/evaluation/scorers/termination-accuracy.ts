import type { Score } from '../case-result';
import type { CaseExpectation } from '../eval-case';
import type { ScoringFacts } from '../scoring-facts';
import { verdict } from './score';

export const TERMINATION_ACCURACY = 'termination_accuracy';

/** Always scored (seed 001 §6, termination accuracy): the run ended for the expected reason, `success` by default. */
export function terminationAccuracy(expect: CaseExpectation, facts: ScoringFacts): Score {
  const wanted = expect.terminationReason ?? 'success';
  const reasons = Array.isArray(wanted) ? wanted : [wanted];
  const passed = reasons.includes(facts.terminationReason);
  return verdict(
    TERMINATION_ACCURACY,
    passed,
    passed
      ? `ended ${facts.terminationReason}, as expected`
      : `ended ${facts.terminationReason}; expected ${reasons.join(' or ')}`,
  );
}
