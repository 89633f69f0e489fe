import { answerLabel, type AnswerGrounding } from '../../chain/answer-grounding';
import type { Score } from '../case-result';
import type { ScoringFacts } from '../scoring-facts';
import { verdict } from './score';

export const GROUNDING = 'grounding';

/**
 * A case's `expect.grounding`: the run judged its answer as expected (`grounded`,
 * `partly_grounded`…, or any of several), naming the unsupported claims when it did not.
 */
export function groundingMatch(expected: AnswerGrounding | readonly AnswerGrounding[], facts: ScoringFacts): Score {
  const wanted: readonly AnswerGrounding[] = typeof expected === 'string' ? [expected] : expected;
  const judged = facts.grounding;
  const passed = judged !== undefined && wanted.includes(judged);
  const unsupported = facts.claims?.unsupported.length ? ` (unsupported: ${facts.claims.unsupported.join(', ')})` : '';
  const title =
    judged === undefined
      ? undefined
      : answerLabel({ grounding: judged, terminationReason: facts.terminationReason })?.title;
  return verdict(
    GROUNDING,
    passed,
    `${judged === undefined ? 'answer not judged' : `answer ${judged}${unsupported}`}${passed ? ', as expected' : `; expected ${wanted.join(' or ')}`}${title ? ` — "${title}"` : ''}`,
  );
}
