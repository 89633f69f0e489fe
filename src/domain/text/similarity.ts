/**
 * One notion of "similar", shared by the loop's stall guard (tool calls), the coherence score's
 * repeats and the plan cache (goals): two texts or calls are compared as *sets* of normalised
 * features, so word order, case, spacing, punctuation, repeats and small words do not matter,
 * and the share of features they have in common (Jaccard) says how alike they are.
 *
 * A feature that holds a digit is exact: two sets that differ in one are not similar at all
 * (`{"b": 7}` and `{"b": 8}`, "Q3" and "Q4"), however much else they share, because a different
 * number almost always means a different request.
 *
 * Where order carries meaning, roles do too (text/roles.ts): a fingerprint also holds role
 * features, each a word and the role it plays, which are not counted in the share but veto it.
 * Two sets that give a word they share different roles are not similar at all: "convert USD to
 * EUR" and "convert EUR to USD" (USD the source in one, the target in the other), or
 * `{from: "USD", to: "EUR"}` and its reverse (in a call, a short string argument's words play the
 * role of the argument's path). Reordered words that keep their roles stay alike ("to EUR from
 * USD" and "from USD to EUR" are the same set).
 *
 * What this cannot tell: in a long text one different word is a small share (`SIMILAR_THRESHOLD`
 * lets 1 in 10 differ), so two goals naming different cities in ten words each are "similar"; a
 * threshold of 1 asks for the same set. Roles said by word order alone ("Alice emails Bob") are
 * not read, and an array's items are a set (their order is not a role).
 *
 * Pure, deterministic and sandbox-safe (no global RegExp state): workflow code uses it.
 */
import { fnv1a } from './fnv1a';
import { rolesConflict, wordRoles } from './roles';
import { STOP_WORDS } from './stop-words';

/** How alike two sets must be (0–1, the share of features they have in common) to count as similar, by default. */
export const SIMILAR_THRESHOLD = 0.8;
/** Features kept in a fingerprint: past it, those with the smallest hashes (exact ones first), a bounded sample. */
export const MAX_FINGERPRINT_FEATURES = 64;
/** Role features kept besides them, the same way: a bounded sample. */
export const MAX_ROLE_FEATURES = 32;
/** The most a stored fingerprint holds: its features and its role features. */
export const MAX_SHAPE_FEATURES = MAX_FINGERPRINT_FEATURES + MAX_ROLE_FEATURES;
/** A string argument of at most this many words names a thing (a currency, a city, an id): its words play the argument's role. */
export const MAX_ROLE_VALUE_WORDS = 4;
/** Nesting of arguments read; deeper values are not features. */
const MAX_ARGUMENT_DEPTH = 16;

export { STOP_WORDS } from './stop-words';

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

/** A role feature's kind: a role read in text (`t`), or the argument a short string value is under (`p`). */
type RoleKind = 't' | 'p';
interface RolePair {
  kind: RoleKind;
  word: string;
  role: string;
}

/**
 * A call's role pairs: each word of a short string argument (MAX_ROLE_VALUE_WORDS) plays its
 * path's role (`from` for USD in `{from: "USD"}`), and a word a string gives a role in its text
 * plays it under the path (`query>to` for EUR in `{query: "USD to EUR"}`). Words are the tool's
 * own: USD in one tool's arguments and in another's are two words, which never conflict.
 */
function callRoles(toolName: string, args: unknown, path = '', depth = 0, out: RolePair[] = []): RolePair[] {
  if (depth > MAX_ARGUMENT_DEPTH) return out;
  if (typeof args === 'string') {
    const words = wordTokens(args);
    // A word is the tool's own (two tools' arguments never meet); its role is the path.
    const own = (word: string) => `${toolName}\u0000${word}`;
    if (words.length <= MAX_ROLE_VALUE_WORDS)
      for (const word of words) out.push({ kind: 'p', word: own(word), role: path });
    for (const { word, role } of wordRoles(args)) out.push({ kind: 't', word: own(word), role: `${path}>${role}` });
  } else if (Array.isArray(args)) {
    for (const item of args) callRoles(toolName, item, path, depth + 1, out);
  } else if (args !== null && typeof args === 'object') {
    for (const [key, member] of Object.entries(args as Record<string, unknown>))
      callRoles(toolName, member, path ? `${path}.${key}` : key, depth + 1, out);
  }
  return out;
}

/** A turn's calls as one fingerprint: every call's features and how many calls there were (a different count is different work), and their roles. */
export function turnFingerprint(calls: ReadonlyArray<{ name: string; input: unknown }>): string[] {
  return [
    ...fingerprint([`calls=${calls.length}`, ...calls.flatMap((c) => callFeatures(c.name, c.input))]),
    ...roleFingerprint(calls.flatMap((c) => callRoles(c.name, c.input))),
  ];
}

/** A text's words as a fingerprint (a goal, a query), and the roles its words play. */
export function textFingerprint(text: string): string[] {
  return [
    ...fingerprint(wordTokens(text)),
    ...roleFingerprint(wordRoles(text).map(({ word, role }) => ({ kind: 't' as const, word, role }))),
  ];
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

/**
 * Role pairs as role features, `@` + kind + 7 hex digits of the word's hash + 7 of the role's
 * (16 characters): unique, sorted, at most MAX_ROLE_FEATURES. After the kind, the word's hash
 * leads, so two fingerprints keep the roles of the same words when they must choose.
 */
function roleFingerprint(pairs: readonly RolePair[]): string[] {
  const features = new Set<string>();
  for (const { kind, word, role } of pairs)
    features.add(`@${kind}${fnv1a(word).slice(0, 7)}${fnv1a(role).slice(0, 7)}`);
  return [...features].sort().slice(0, MAX_ROLE_FEATURES);
}

/** A role feature read back: its kind and word hash (one key, so kinds never meet) and its role hash. */
function rolePairOf(feature: string): { word: string; role: string } {
  return { word: feature.slice(1, 9), role: feature.slice(9) };
}

/** A feature's value (after its last `=`, or the whole word) holds a digit. */
function isExact(feature: string): boolean {
  return DIGIT.test(feature.slice(feature.lastIndexOf('=') + 1));
}

/**
 * How alike two fingerprints are, 0–1: the features they share over all their features
 * (Jaccard), or 0 when one has an exact feature (a number) the other lacks, or when their role
 * features give a word they share different roles. Role features are not counted in the share.
 * Two empty sets are the same (1). A fingerprint stored before roles were read has none: it is
 * compared by its features alone, as it was.
 */
export function similarity(a: readonly string[], b: readonly string[]): number {
  const left = new Set<string>();
  const right = new Set<string>();
  const leftRoles: Array<{ word: string; role: string }> = [];
  const rightRoles: Array<{ word: string; role: string }> = [];
  for (const f of a) {
    if (f.startsWith('@')) leftRoles.push(rolePairOf(f));
    else left.add(f);
  }
  for (const f of b) {
    if (f.startsWith('@')) rightRoles.push(rolePairOf(f));
    else right.add(f);
  }
  if (rolesConflict(leftRoles, rightRoles)) return 0;
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
