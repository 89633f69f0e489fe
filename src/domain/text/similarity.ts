/**
 * One notion of "similar", shared by the loop's stall guard (tool calls) and the plan cache
 * (goals): two texts or calls are compared as *sets* of normalised features, so word order,
 * case, spacing, punctuation, repeats and small words do not matter, and the share of features
 * they have in common (Jaccard) says how alike they are.
 *
 * A feature that holds a digit is exact: two sets that differ in one are not similar at all
 * (`{"b": 7}` and `{"b": 8}`, "Q3" and "Q4"), however much else they share, because a different
 * number almost always means a different request. What this cannot tell: in a long text one
 * different word is a small share (`SIMILAR_THRESHOLD` lets 1 in 10 differ), so two goals naming
 * different cities in ten words each are "similar"; a threshold of 1 asks for the same set.
 *
 * Pure, deterministic and sandbox-safe (no global RegExp state): workflow code uses it.
 */
import { fnv1a } from './fnv1a';

/** How alike two sets must be (0–1, the share of features they have in common) to count as similar, by default. */
export const SIMILAR_THRESHOLD = 0.8;
/** Features kept in a fingerprint: past it, those with the smallest hashes (exact ones first), a bounded sample. */
export const MAX_FINGERPRINT_FEATURES = 64;
/** Nesting of arguments read; deeper values are not features. */
const MAX_ARGUMENT_DEPTH = 16;

/** Words that say little about what a text asks for. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
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

/** Letters and digits of any script; everything else separates words. Not global: no state. */
const WORD_CHAR = /[\p{L}\p{N}]/u;
/** A digit of any script: a feature holding one is exact. Not global: no state. */
const DIGIT = /\p{N}/u;

/**
 * The text's words: compatibility-folded (NFKC: full-width letters, ligatures) and lowercased,
 * split at anything that is not a letter or digit, without stop words, unique, in order of first
 * appearance. Accents are kept ("schon" is not "schön").
 */
export function wordTokens(text: string): string[] {
  const words = new Set<string>();
  let word = '';
  const flush = () => {
    if (word && !STOP_WORDS.has(word)) words.add(word);
    word = '';
  };
  for (const ch of text.normalize('NFKC').toLowerCase()) {
    if (WORD_CHAR.test(ch)) word += ch;
    else flush();
  }
  flush();
  return [...words];
}

/**
 * A tool call's arguments as `path=token` features: each word of a string under its path
 * (`query=paris`), a number, boolean or null as itself (`b=7`), array items under the array's
 * path (their order ignored), object members under `path.key`. A string with no words (only stop
 * words or punctuation) is one feature of its folded text, so it still counts.
 */
export function argumentFeatures(args: unknown): string[] {
  const out = new Set<string>();
  collect(args, '', 0, out);
  return [...out];
}

function collect(value: unknown, path: string, depth: number, out: Set<string>): void {
  if (depth > MAX_ARGUMENT_DEPTH) return;
  if (typeof value === 'string') {
    const words = wordTokens(value);
    if (words.length === 0) out.add(`${path}=${value.normalize('NFKC').toLowerCase().trim()}`);
    for (const word of words) out.add(`${path}=${word}`);
  } else if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    out.add(`${path}=${String(value)}`);
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, path, depth + 1, out);
  } else if (typeof value === 'object') {
    for (const [key, member] of Object.entries(value as Record<string, unknown>))
      collect(member, path ? `${path}.${key}` : key, depth + 1, out);
  }
}

/** One call's features: the tool's name, and its arguments' features under the name (so two tools' arguments never meet). */
export function callFeatures(toolName: string, args: unknown): string[] {
  return [`${toolName}()`, ...argumentFeatures(args).map((f) => `${toolName}.${f}`)];
}

/** A turn's calls as one fingerprint: every call's features and how many calls there were (a different count is different work). */
export function turnFingerprint(calls: ReadonlyArray<{ name: string; input: unknown }>): string[] {
  return fingerprint([`calls=${calls.length}`, ...calls.flatMap((c) => callFeatures(c.name, c.input))]);
}

/** A text's words as a fingerprint (a goal, a query). */
export function textFingerprint(text: string): string[] {
  return fingerprint(wordTokens(text));
}

/**
 * Features as a bounded, storable set: each hashed (FNV-1a) and marked `#` when it holds a digit
 * (exact) or `~` otherwise; unique, sorted (exact ones first), at most MAX_FINGERPRINT_FEATURES.
 */
export function fingerprint(features: Iterable<string>): string[] {
  const hashes = new Set<string>();
  for (const feature of features) hashes.add(`${isExact(feature) ? '#' : '~'}${fnv1a(feature)}`);
  return [...hashes].sort().slice(0, MAX_FINGERPRINT_FEATURES);
}

/** A feature's value (after its last `=`, or the whole word) holds a digit. */
function isExact(feature: string): boolean {
  return DIGIT.test(feature.slice(feature.lastIndexOf('=') + 1));
}

/**
 * How alike two fingerprints are, 0–1: the features they share over all their features
 * (Jaccard), or 0 when one has an exact feature (a number) the other lacks. Two empty sets are
 * the same (1).
 */
export function similarity(a: readonly string[], b: readonly string[]): number {
  const left = new Set(a);
  const right = new Set(b);
  let shared = 0;
  for (const f of left) {
    if (right.has(f)) shared++;
    else if (f.startsWith('#')) return 0;
  }
  for (const f of right) if (!left.has(f) && f.startsWith('#')) return 0;
  const union = left.size + right.size - shared;
  return union === 0 ? 1 : shared / union;
}

/** Similar at `threshold` (default SIMILAR_THRESHOLD): at least that alike. */
export function isSimilar(a: readonly string[], b: readonly string[], threshold = SIMILAR_THRESHOLD): boolean {
  return similarity(a, b) >= threshold;
}

/** "86% alike": a similarity as a whole percentage, rounded down so 0.999 never reads as 100%. */
export function alikeText(value: number): string {
  return `${Math.floor(value * 100 + 1e-6)}% alike`;
}
