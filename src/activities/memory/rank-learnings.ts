import MiniSearch from 'minisearch';
import type { MemoryEntry, MemoryRecall } from '../../domain/planning/agent-memory';
import { goalWords } from '../../domain/planning/goal-key';

/**
 * Which of an agent's learnings a run recalls (`planning.memory`): those whose words match the
 * run's goal, by BM25+ (minisearch), most relevant first; equal scores and the slots left over go
 * to the newest. A goal with no words to match recalls the newest, newest first. Node side (the
 * activity): the workflow only records what this returns. Deterministic for the same entries and
 * query; the index is built per call (at most MAX_MEMORY_ENTRIES short texts).
 */

/**
 * A text's words as the plan cache reads goals (goal-key.ts's goalWords): lowercased, punctuation and small
 * words dropped, each word once. Sharing it keeps one notion of "the same words" across the two.
 */
function words(text: string): string[] {
  const key = goalWords(text);
  return key === '' ? [] : key.split(' ');
}

/**
 * A query word of this many letters or more also matches the words it begins ("refund" finds
 * "refunds"), scored lower than an exact match; shorter ones match only themselves.
 */
const MIN_PREFIX_CHARS = 4;

/** At most `limit` of `entries` (oldest first, as stored), ranked against `query`. */
export function rankLearnings(entries: readonly MemoryEntry[], query: string, limit: number): MemoryRecall {
  const considered = entries.length;
  const bound = Math.max(0, Math.floor(limit));
  const newestFirst = entries.map((entry, index) => ({ entry, index })).reverse();
  const queryWords = words(query);
  if (queryWords.length === 0 || considered === 0)
    return { entries: newestFirst.slice(0, bound).map((e) => e.entry), considered, matched: 0 };

  const index = new MiniSearch<{ id: number; text: string }>({
    fields: ['text'],
    idField: 'id',
    tokenize: words,
    searchOptions: { prefix: (term) => term.length >= MIN_PREFIX_CHARS, combineWith: 'OR' },
  });
  index.addAll(entries.map((e, i) => ({ id: i, text: e.text })));
  const scores = new Map<number, number>();
  for (const hit of index.search(queryWords.join(' '))) if (hit.score > 0) scores.set(hit.id as number, hit.score);

  // Stable sort of the newest-first list: ties keep newest first; unmatched (score 0) come last, newest first.
  const ranked = [...newestFirst].sort((a, b) => (scores.get(b.index) ?? 0) - (scores.get(a.index) ?? 0));
  const chosen = ranked.slice(0, bound);
  return {
    entries: chosen.map((e) => e.entry),
    considered,
    matched: chosen.filter((e) => scores.has(e.index)).length,
  };
}
