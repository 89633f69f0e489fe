import type { Score } from '../case-result';
import type { CaseExpectation } from '../eval-case';
import type { ScoringFacts } from '../scoring-facts';
import { verdict } from './score';

export const CONSENSUS = 'consensus';

/**
 * Judges the run's first consensus (`expect.consensus`): whether its models agreed, and how far,
 * as the tool's agreement rules (or its judge) grouped their answers. No consensus: fails.
 */
export function consensusMatch(expected: NonNullable<CaseExpectation['consensus']>, facts: ScoringFacts): Score {
  const first = facts.consensus[0];
  if (!first) return verdict(CONSENSUS, false, 'the run asked no consensus');
  const percent = `${Math.round(first.agreement * 100)}%`;
  const seen = `${first.unanimous ? 'unanimous' : 'not unanimous'}, ${percent} agreed (groups: ${first.groups.map((g) => g.join(' + ')).join(' | ')})`;
  const unanimousOk = expected.unanimous === undefined || first.unanimous === expected.unanimous;
  const shareOk = expected.minAgreement === undefined || first.agreement >= expected.minAgreement;
  const wanted = [
    expected.unanimous === undefined ? undefined : expected.unanimous ? 'unanimous' : 'not unanimous',
    expected.minAgreement === undefined ? undefined : `at least ${Math.round(expected.minAgreement * 100)}% agreeing`,
  ].filter(Boolean);
  const passed = unanimousOk && shareOk;
  return verdict(CONSENSUS, passed, passed ? `${seen}, as expected` : `${seen}; expected ${wanted.join(', ')}`);
}
