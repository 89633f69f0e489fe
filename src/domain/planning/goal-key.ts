/**
 * The key under which a plan is kept for reuse (`cache.plans`): two goals that differ only in case,
 * spacing, punctuation, word order, repeated words or the small words below get the same key, and
 * so the same plan. Deterministic and pure (the workflow computes it), bounded by MAX_GOAL_KEY_CHARS.
 */

/** Longest goal key; a longer goal's key is cut here (at a word boundary), which keeps lookups bounded. */
export const MAX_GOAL_KEY_CHARS = 1_000;

/** Words that say little about what a goal asks for. */
const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'from',
  'in',
  'into',
  'is',
  'it',
  'its',
  'me',
  'my',
  'of',
  'on',
  'or',
  'our',
  'please',
  'the',
  'then',
  'this',
  'that',
  'to',
  'with',
]);

/** The goal's words, lowercased, without punctuation or stop words, unique and sorted, joined by one space. */
export function goalKey(goal: string): string {
  const words = new Set<string>();
  let word = '';
  const flush = () => {
    if (word && !STOP_WORDS.has(word)) words.add(word);
    word = '';
  };
  for (const ch of goal.toLowerCase()) {
    if (isWordChar(ch)) word += ch;
    else flush();
  }
  flush();
  let key = '';
  for (const w of [...words].sort()) {
    const next = key ? `${key} ${w}` : w;
    if (next.length > MAX_GOAL_KEY_CHARS) break;
    key = next;
  }
  return key;
}

/** Letters and digits of any script; everything else (spaces, punctuation, symbols) separates words. Not global: no state. */
const WORD_CHAR = /[\p{L}\p{N}]/u;
const isWordChar = (ch: string): boolean => WORD_CHAR.test(ch);

/** The tools half of a plan's key: the run's tool names, unique and sorted. */
export function planToolsKey(toolNames: readonly string[]): string[] {
  return [...new Set(toolNames)].sort();
}
