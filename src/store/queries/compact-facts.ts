import type { ViewFacts } from '../../domain/chain/chain-view';

type CallFact = ViewFacts['calls'][string];

/**
 * Keys a neutral call may carry. Its tool's name and type matter only to a visibility policy's
 * result rules, and a reader with such rules reads the run's calls again (readStoredPage): kept
 * here, they would grow every run's facts.
 */
const NEUTRAL_KEYS: readonly string[] = ['sensitiveFields', 'level', 'model', 'toolType', 'toolName'];

/**
 * A call the views treat exactly as an unknown one: no sensitive fields, full visibility, not a
 * model call (IncrementalChainView reads a missing call as `sensitiveFields ?? []`, level
 * undefined, model undefined). A fact with any other key is kept, whatever it holds.
 */
function isNeutral(fact: CallFact): boolean {
  for (const key of Object.keys(fact)) if (!NEUTRAL_KEYS.includes(key)) return false;
  return fact.sensitiveFields.length === 0 && fact.level === 'full' && fact.model === undefined;
}

/**
 * The facts without neutral calls: a run's facts are read with every page and rewritten with
 * every write, and most calls of a long chain carry nothing a view needs. The contract suite checks
 * that pages viewed from compacted facts still equal the whole chain's view for every role.
 */
export function compactFacts(facts: ViewFacts): ViewFacts {
  const calls: ViewFacts['calls'] = {};
  for (const [id, fact] of Object.entries(facts.calls)) if (!isNeutral(fact)) calls[id] = fact;
  return { calls, values: facts.values };
}
