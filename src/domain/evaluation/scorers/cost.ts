import type { Score } from '../case-result';
import type { ScoringFacts } from '../scoring-facts';
import { verdict } from './score';

export const COST = 'cost';

/** The run's cost in USD (its model calls, sub-agents included as AgentResult counts them) at or under the case's limit. */
export function cost(maxUsd: number, facts: ScoringFacts): Score {
  const passed = facts.costUsd <= maxUsd;
  return verdict(COST, passed, `$${usd(facts.costUsd)}, ${passed ? 'within' : 'over'} $${usd(maxUsd)}`);
}

const usd = (value: number): string => String(Number(value.toPrecision(4)));
