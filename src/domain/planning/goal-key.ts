import { wordTokens } from '../text/similarity';

/**
 * The key under which a plan is kept for reuse (`cache.plans`): two goals that differ only in case,
 * spacing, punctuation, word order, repeated words or stop words (text/similarity.ts) get the same
 * key, and so the same plan.
 * Deterministic and pure (the workflow computes it), bounded by MAX_GOAL_KEY_CHARS.
 */

/** Longest goal key; a longer goal's key is cut here (at a word boundary), which keeps lookups bounded. */
export const MAX_GOAL_KEY_CHARS = 1_000;

/** The goal's words (similarity.ts's wordTokens: folded, without punctuation or stop words), unique and sorted, joined by one space. */
export function goalKey(goal: string): string {
  let key = '';
  for (const w of wordTokens(goal).sort()) {
    const next = key ? `${key} ${w}` : w;
    if (next.length > MAX_GOAL_KEY_CHARS) break;
    key = next;
  }
  return key;
}

/** The tools half of a plan's key: the run's tool names, unique and sorted. */
export function planToolsKey(toolNames: readonly string[]): string[] {
  return [...new Set(toolNames)].sort();
}
