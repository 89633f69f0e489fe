/**
 * What a claim is said of (docs/concepts.md, "Grounded answers"): the names of the clause that
 * states it ("Tokyo is 12°C" is about Tokyo), and whether the clause denies it ("Paris is not
 * 18 °C"). Observations are read the same way, so a figure supports a claim only when it was
 * observed of the same subject. A deterministic reader of short texts, not a parser: it splits at
 * punctuation and a few conjunctions. Pure, linear and sandbox-safe (no RegExp with state).
 */
import { foldText, unitSymbol } from '../text/answer-values';
import { isLetterOrDigit, isUpperLetter } from '../text/char-class';
import { codeName, notAName } from './answer-claims';

/** One clause of a text: its span, its sentence, the names it states (folded, with where each starts) and whether it denies. */
export interface Clause {
  at: number;
  end: number;
  sentence: number;
  names: string[];
  nameAt: number[];
  negated: boolean;
  /** Whom what it states may be said of, most likely first (see `subjectCandidates`). */
  candidates: string[][];
}
/** Words that open a new clause inside a sentence: what follows is said of its own subject. */
const CLAUSE_WORDS: ReadonlySet<string> = new Set(['and', 'but', 'so', 'while', 'whereas', 'although', 'though']);
/** Words that join names into one subject rather than open a clause ("both Paris and Tokyo"). */
const LIST_WORDS: ReadonlySet<string> = new Set(['both', 'either', 'neither', 'the', 'in', 'at', 'for', 'of']);
/** How far past "and" a list of names is looked for. */
const LIST_LOOKAHEAD_WORDS = 6;
/** The most names a sentence's subjects hold; a longer list says nothing about one subject. */
const MAX_SENTENCE_NAMES = 50;

/** Words that deny what their clause states. */
const DENIALS: ReadonlySet<string> = new Set([
  'not',
  'never',
  'isn',
  'aren',
  'wasn',
  'weren',
  'doesn',
  'don',
  'didn',
  'won',
  'cannot',
  'neither',
  'nor',
]);

const isWordChar = (ch: string | undefined): boolean => isLetterOrDigit(ch) || ch === '_' || ch === '-';

/** Whether the character at `i` ends a sentence: `.`, `!`, `?` before a space or the end, or a line break. */
function endsSentence(text: string, i: number): boolean {
  const ch = text[i];
  if (ch === '\n') return true;
  if (ch !== '.' && ch !== '!' && ch !== '?') return false;
  const next = text[i + 1];
  return next === undefined || next === ' ' || next === '\n' || next === '\t';
}

/** Whether the character at `i` ends a clause: `;`, `:`, `(`, `)`, or a comma not inside a figure ("1,200"). */
function endsClause(text: string, i: number): boolean {
  const ch = text[i];
  if (ch === ';' || ch === ':' || ch === '(' || ch === ')') return true;
  return ch === ',' && !(isDigit(text[i - 1]) && isDigit(text[i + 1]));
}

const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= '0' && ch <= '9';

/**
 * Whether "and" at `at` joins names into one subject: the clause so far holds only names and list
 * words ("Both Paris and Tokyo are sunny"), or only names follow it to the clause's end ("rain in
 * Paris and Tokyo"). Bounded look-ahead.
 */
function joinsNames(text: string, start: number, at: number, end: number): boolean {
  const before = at - start <= 60 ? text.slice(start, at).trim().split(/\s+/u) : [];
  if (
    before.length > 0 &&
    before[0] !== '' &&
    before.every((w) => LIST_WORDS.has(w.toLowerCase()) || isUpperLetter(w[0]))
  )
    return before.some((w) => isUpperLetter(w[0]));
  let i = end;
  for (let words = 0; words < LIST_LOOKAHEAD_WORDS; words++) {
    while (text[i] === ' ') i++;
    if (i >= text.length || endsSentence(text, i) || endsClause(text, i)) return words > 0;
    if (!isUpperLetter(text[i])) return false;
    while (i < text.length && isWordChar(text[i])) i++;
  }
  return false;
}

/**
 * The clauses of `text`, in order, each with its names: runs of capitalised words (openers,
 * months, unit words and names from code left out), a sentence's first word included, since a
 * subject often opens one ("Tokyo is 21°C"); and whom each may be said of. Linear in the text.
 */
export function readClauses(text: string): Clause[] {
  const clauses: Clause[] = [];
  let sentence = 0;
  let start = 0;
  let names: string[] = [];
  let nameAt: number[] = [];
  let run: string[] = [];
  let runAt = 0;
  let negated = false;
  const flushName = (): void => {
    while (run.length > 0 && notAName(run[0]!)) {
      runAt += run[0]!.length + 1;
      run.shift();
    }
    while (run.length > 0 && notAName(run.at(-1)!)) run.pop();
    if (run.length > 0) {
      names.push(foldText(run.join(' ')));
      nameAt.push(runAt);
    }
    run = [];
  };
  const close = (end: number): void => {
    flushName();
    if (end > start) clauses.push({ at: start, end, sentence, names, nameAt, negated, candidates: [] });
    names = [];
    nameAt = [];
    negated = false;
    start = end;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (!isWordChar(ch)) {
      if (endsSentence(text, i)) {
        close(i + 1);
        sentence++;
      } else if (endsClause(text, i)) close(i + 1);
      else if (!(ch === ' ' && isUpperLetter(text[i + 1]))) flushName();
      continue;
    }
    let end = i;
    while (end < text.length && isWordChar(text[end])) end++;
    const word = text.slice(i, end);
    const lower = word.toLowerCase();
    if (CLAUSE_WORDS.has(lower) && !(lower === 'and' && joinsNames(text, start, i, end))) close(i);
    // "isn't" reads as "isn", "'", "t": either half denies.
    if (DENIALS.has(lower) || (lower === 't' && (text[i - 1] === "'" || text[i - 1] === '’'))) negated = true;
    if (isUpperLetter(ch) && word.length >= 2 && !codeName(word) && unitSymbol(word) === undefined) {
      if (run.length === 0) runAt = i;
      run.push(word);
    } else flushName();
    i = end - 1;
  }
  close(text.length);
  resolveCandidates(clauses);
  return clauses;
}

/**
 * Whom a claim in each clause may be said of, most likely first: the clause's own names (final
 * when it has any: "Berlin is 18 °C" is about Berlin whatever the sentence says), else the nearest
 * named clause before it in its sentence ("Paris: 12°C, light rain"), else every name of its
 * sentence ("It is 12°C in Paris"), else the last name of the sentences before ("Paris is wet.
 * It is 12°C."). Empty: said of nothing named, so any observation may support it. One pass.
 */
function resolveCandidates(clauses: Clause[]): void {
  const sentenceNames = new Map<number, string[]>();
  for (const c of clauses) {
    const all = sentenceNames.get(c.sentence) ?? [];
    for (const n of c.names) if (all.length < MAX_SENTENCE_NAMES && !all.includes(n)) all.push(n);
    sentenceNames.set(c.sentence, all);
  }
  let lastName: string | undefined;
  let lastNamed: string[] | undefined;
  let sentence = -1;
  let lastNameBefore: string | undefined;
  for (const c of clauses) {
    if (c.sentence !== sentence) {
      sentence = c.sentence;
      lastNamed = undefined;
      lastNameBefore = lastName;
    }
    if (c.names.length > 0) c.candidates = [c.names];
    else {
      const all = sentenceNames.get(c.sentence) ?? [];
      if (lastNamed) c.candidates.push(lastNamed);
      if (all.length > 0) c.candidates.push(all);
      if (c.candidates.length === 0 && lastNameBefore !== undefined) c.candidates.push([lastNameBefore]);
    }
    if (c.names.length > 0) {
      lastNamed = c.names;
      lastName = c.names.at(-1);
    }
  }
}

/** The clause holding offset `at`. */
export function clauseAt(clauses: readonly Clause[], at: number): Clause | undefined {
  let lo = 0;
  let hi = clauses.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = clauses[mid]!;
    if (at < c.at) hi = mid - 1;
    else if (at >= c.end) lo = mid + 1;
    else return c;
  }
  return undefined;
}

/** Words that tie a figure to the name after them: "21°C in Paris", "the price of ACME". */
const TIES: ReadonlySet<string> = new Set(['in', 'at', 'for', 'of', 'from']);

/**
 * Whom a claim at `at` in `clause` may be said of, most likely first (the clause's candidates). In
 * a clause naming several, a figure or word is said of one of them: the name it is tied to ("12°C
 * in Paris"), else the nearest before it ("Paris is 21°C vs Tokyo's 12°C"), else the nearest after.
 */
export function subjectCandidates(text: string, clause: Clause, at: number): string[][] {
  if (clause.names.length < 2) return clause.candidates;
  let end = at;
  while (end < clause.end && text[end] !== ' ') end++;
  const after = text.slice(end, Math.min(clause.end, end + 40)).trimStart();
  const tie = after.split(' ')[0]?.toLowerCase() ?? '';
  const index = clause.nameAt.findIndex((p) => p > at);
  if (TIES.has(tie) && index >= 0) {
    const gap = clause.nameAt[index]! - end;
    if (gap <= tie.length + 8) return [[clause.names[index]!]];
  }
  const before = index < 0 ? clause.names.length - 1 : index - 1;
  return [[clause.names[before >= 0 ? before : index]!]];
}

/** Whether a name said of a claim is one of an observation's subjects ("new york" and "new york city" agree). */
export function sameSubject(names: readonly string[], subjects: ReadonlySet<string>): boolean {
  for (const n of names) {
    if (subjects.has(n)) return true;
    for (const s of subjects) if (` ${s} `.includes(` ${n} `) || ` ${n} `.includes(` ${s} `)) return true;
  }
  return false;
}
