/**
 * The roles words play where meaning depends on order: "convert USD to EUR" and "convert EUR to
 * USD" have the same words, and USD is the source in one and the target in the other. Read from
 * the text's own markers, left to right, in one pass:
 * - `to`: the word after to, into, towards, toward or an arrow (→, ->, =>);
 * - `from`: the word after from or since, and the word just before a `to` marker ("USD to EUR":
 *   the X of "X to Y");
 * - `than`: the word after than ("warmer than Tokyo"), and `subject`: the first word of that
 *   clause ("Paris" in "yes, Paris is warmer than Tokyo"; clause openers like "so" aside);
 * - `about`: the word after about or regarding;
 * - `owner`: the word before a possessive 's ("Alice's report").
 * "The word after" skips stop words ("to the station": station); punctuation other than an
 * apostrophe or an arrow ends a clause, so a word never takes a role across it. A word without a
 * marker has no role. What this cannot read: roles said by word order alone ("Alice emails Bob"),
 * or by a verb ("Tokyo follows Paris").
 *
 * Pure, linear in the text's length and sandbox-safe (no global RegExp state): workflow code uses it.
 */
import { STOP_WORDS } from './stop-words';

export const WORD_ROLES = ['to', 'from', 'than', 'subject', 'about', 'owner'] as const;
export type WordRole = (typeof WORD_ROLES)[number];

/** A word and the role it plays, as read from the text. */
export interface RoledWord {
  word: string;
  role: WordRole;
}

/** Marker words and the role they give the next word. */
const NEXT_WORD_ROLE: ReadonlyMap<string, WordRole> = new Map<string, WordRole>([
  ['to', 'to'],
  ['into', 'to'],
  ['towards', 'to'],
  ['toward', 'to'],
  ['from', 'from'],
  ['since', 'from'],
  ['than', 'than'],
  ['about', 'about'],
  ['regarding', 'about'],
]);

/** Words that open a clause without being its subject ("so Paris is warmer…"). */
const CLAUSE_OPENERS: ReadonlySet<string> = new Set([
  'so',
  'but',
  'because',
  'while',
  'whereas',
  'yes',
  'no',
  'thus',
  'hence',
]);

/** Whether a word is a marker that gives the next word a role ("than", "into"…). */
export function isRoleMarker(word: string): boolean {
  return NEXT_WORD_ROLE.has(word);
}

/** The words that say each role, as roleText writes it: read back by wordRoles, they give the same role. */
const ROLE_WORD: Readonly<Record<Exclude<WordRole, 'owner' | 'subject'>, string>> = {
  to: 'to',
  from: 'from',
  than: 'than',
  about: 'about',
};

/** A word with its role as text that wordRoles reads back as that role: "to eur", "alice's". */
export function roleText({ word, role }: RoledWord): string {
  if (role === 'owner') return `${word}'s`;
  // "is" (a stop word) keeps the subject apart from the comparative, which is no subject.
  if (role === 'subject') return `${word} is than`;
  return `${ROLE_WORD[role]} ${word}`;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
const SPACE = /\s/u;
const APOSTROPHES: ReadonlySet<string> = new Set(["'", '’']);
/** An arrow marker, as a token of its own (it gives the next word the `to` role). */
const ARROW = '→';

type Token = { kind: 'word'; text: string } | { kind: 'arrow' } | { kind: 'possessive' } | { kind: 'break' };

/** Words, arrows, possessive 's and clause breaks, in order. Spaces separate and are dropped. */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  const chars = [...text.normalize('NFKC').toLowerCase()];
  let word = '';
  const flush = () => {
    if (word) out.push({ kind: 'word', text: word });
    word = '';
  };
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (WORD_CHAR.test(ch)) {
      word += ch;
      continue;
    }
    flush();
    const next = chars[i + 1];
    if (ch === ARROW || ((ch === '-' || ch === '=') && next === '>')) {
      out.push({ kind: 'arrow' });
      if (ch !== ARROW) i++;
    } else if (APOSTROPHES.has(ch) && next === 's' && !WORD_CHAR.test(chars[i + 2] ?? ' ')) {
      out.push({ kind: 'possessive' });
      i++;
    } else if (!SPACE.test(ch) && !APOSTROPHES.has(ch)) out.push({ kind: 'break' });
  }
  flush();
  return out;
}

/**
 * The text's words that play a role, in order of first appearance, each with its role; a word
 * given one role twice is listed once. Stop words never take a role (they are markers or say
 * little); a word may take two roles ("from usd to eur to usd").
 */
export function wordRoles(text: string): RoledWord[] {
  const out: RoledWord[] = [];
  const seen = new Set<string>();
  const give = (word: string | undefined, role: WordRole) => {
    if (word === undefined || STOP_WORDS.has(word) || seen.has(`${role}\u0000${word}`)) return;
    seen.add(`${role}\u0000${word}`);
    out.push({ word, role });
  };
  // The last content word of the clause, if the token just before this one was it.
  let previous: string | undefined;
  let pending: WordRole | undefined;
  // The clause's first content word (its subject, when it compares).
  let first: string | undefined;
  for (const token of tokens(text)) {
    if (token.kind === 'break') {
      previous = undefined;
      pending = undefined;
      first = undefined;
    } else if (token.kind === 'possessive') {
      give(previous, 'owner');
      previous = undefined;
    } else {
      const marker = token.kind === 'arrow' ? 'to' : NEXT_WORD_ROLE.get(token.text);
      if (marker !== undefined) {
        if (marker === 'to') give(previous, 'from');
        if (marker === 'than' && first !== previous) give(first, 'subject');
        pending = marker;
        previous = undefined;
      } else if (token.kind === 'word' && !STOP_WORDS.has(token.text)) {
        if (pending !== undefined) give(token.text, pending);
        if (first === undefined && !CLAUSE_OPENERS.has(token.text)) first = token.text;
        pending = undefined;
        previous = token.text;
      } else previous = undefined;
    }
  }
  return out;
}

/**
 * Whether two sets of (word, role) pairs give a word they share different roles: a word with
 * exactly one role in each, and not the same one (USD `from` in one, `to` in the other). A word
 * with a role in only one of them, or with two roles in either, is no conflict: "convert USD to
 * EUR" and "USD EUR rate" do not conflict. Pairs are compared as strings: `key(word)` and
 * `role` are whatever the caller stores (similarity.ts stores hashes). Linear in their number.
 */
export function rolesConflict(
  a: ReadonlyArray<{ word: string; role: string }>,
  b: ReadonlyArray<{ word: string; role: string }>,
): boolean {
  const left = singleRoles(a);
  const right = singleRoles(b);
  for (const [word, role] of left) {
    const other = right.get(word);
    if (role !== undefined && other !== undefined && other !== role) return true;
  }
  return false;
}

/** Each word's one role, or undefined when it has two or more. */
function singleRoles(pairs: ReadonlyArray<{ word: string; role: string }>): Map<string, string | undefined> {
  const roles = new Map<string, string | undefined>();
  for (const { word, role } of pairs) {
    if (!roles.has(word)) roles.set(word, role);
    else if (roles.get(word) !== role) roles.set(word, undefined);
  }
  return roles;
}
