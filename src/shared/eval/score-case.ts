import type { Score } from './case-result';
import type { CaseExpectation } from './eval-case';
import type { ScoringFacts } from './scoring-facts';

/**
 * The deterministic scores of one run: one per field of the case's expectation, plus
 * `termination_accuracy` when no termination is expected (then `success` is). Pure and
 * sandbox-safe: the evaluation workflow calls it as the case's run ends.
 */
export function scoreCase(expect: CaseExpectation, facts: ScoringFacts): Score[] {
  const wanted = expect.terminationReason ?? 'success';
  const reasons = Array.isArray(wanted) ? wanted : [wanted];
  const passed = reasons.includes(facts.terminationReason);
  return [
    {
      scorer: 'termination_accuracy',
      value: passed ? 1 : 0,
      passed,
      why: `ended ${facts.terminationReason}; expected ${reasons.join(' or ')}`,
    },
  ];
}
