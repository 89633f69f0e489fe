import { isRoleMarker, roleText, wordRoles } from '../text/roles';
import { wordTokens } from '../text/similarity';

/**
 * The key under which a plan is kept for reuse (`cache.plans`): two goals that differ only in case,
 * spacing, punctuation, word order, repeated words or stop words (text/similarity.ts) get the same
 * key, and so the same plan, unless their words play different roles (text/roles.ts): "convert
 * USD to EUR" and "convert EUR to USD" get two keys.
 * Deterministic and pure (the workflow computes it), bounded by MAX_GOAL_KEY_CHARS.
 */

/** Longest goal key; a longer goal's key is cut here (at a word boundary), which keeps lookups bounded. */
export const MAX_GOAL_KEY_CHARS = 1_000;

/** The goal's words (similarity.ts's wordTokens: folded, without punctuation or stop words), unique and sorted, joined by one space. */
export function goalWords(goal: string): string {
  return joinBounded(wordTokens(goal).sort(), ' ');
}

/**
 * goalWords without the words that mark roles ("than", "into"…), then each role a word plays,
 * sorted, after a semicolon ("convert eur usd; from usd; to eur"), so that read again by
 * similarity.ts (the similar-plan lookup reads keys) the key gives the same roles. A goal
 * without roles keeps the key it had before roles were read.
 */
export function goalKey(goal: string): string {
  const words = wordTokens(goal)
    .filter((w) => !isRoleMarker(w))
    .sort();
  const roles = [...new Set(wordRoles(goal).map(roleText))].sort();
  return joinBounded(words.length > 0 ? [words.join(' '), ...roles] : roles, '; ');
}

/** The parts joined by `separator`, cut before the first that would pass MAX_GOAL_KEY_CHARS (a part longer than that is cut at a word). */
function joinBounded(parts: readonly string[], separator: string): string {
  let key = '';
  for (const part of parts) {
    const next = key ? `${key}${separator}${part}` : part;
    if (next.length <= MAX_GOAL_KEY_CHARS) {
      key = next;
      continue;
    }
    if (!key) key = cutAtWord(part);
    break;
  }
  return key;
}

function cutAtWord(text: string): string {
  let key = '';
  for (const w of text.split(' ')) {
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
