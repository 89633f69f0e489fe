import type { Score } from '../case-result';
import type { ScoringFacts } from '../scoring-facts';
import { verdict } from './score';

export const LATENCY = 'latency';

/** The run's wall time (AgentResult.executionTimeMs) at or under the case's limit. */
export function latency(maxMs: number, facts: ScoringFacts): Score {
  const passed = facts.latencyMs <= maxMs;
  return verdict(LATENCY, passed, `${Math.round(facts.latencyMs)} ms, ${passed ? 'within' : 'over'} ${maxMs} ms`);
}
