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

/** One clause of a text: its span, its sentence, the names it states (folded) and whether it denies. */
export interface Clause {
  at: number;
  end: number;
  sentence: number;
  names: string[];
  negated: boolean;
}

/** Words that open a new clause inside a sentence: what follows is said of its own subject. */
const CLAUSE_WORDS: ReadonlySet<string> = new Set(['and', 'but', 'so', 'while', 'whereas', 'although', 'though']);
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
 * The clauses of `text`, in order, each with its names: runs of capitalised words (openers,
 * months, unit words and names from code left out), a sentence's first word included, since a
 * subject often opens one ("Tokyo is 21°C").
 */
export function readClauses(text: string): Clause[] {
  const clauses: Clause[] = [];
  let sentence = 0;
  let start = 0;
  let names: string[] = [];
  let run: string[] = [];
  let negated = false;
  const flushName = (): void => {
    while (run.length > 0 && notAName(run[0]!)) run.shift();
    while (run.length > 0 && notAName(run.at(-1)!)) run.pop();
    if (run.length > 0) names.push(foldText(run.join(' ')));
    run = [];
  };
  const close = (end: number): void => {
    flushName();
    if (end > start) clauses.push({ at: start, end, sentence, names, negated });
    names = [];
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
    if (CLAUSE_WORDS.has(lower)) close(i);
    // "isn't" reads as "isn", "'", "t": either half denies.
    if (DENIALS.has(lower) || (lower === 't' && (text[i - 1] === "'" || text[i - 1] === '’'))) negated = true;
    if (isUpperLetter(ch) && word.length >= 2 && !codeName(word) && unitSymbol(word) === undefined) run.push(word);
    else flushName();
    i = end - 1;
  }
  close(text.length);
  return clauses;
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

/**
 * Whom a claim in `clause` may be said of, most likely first: the clause's own names (final when
 * it has any: "Berlin is 18 °C" is about Berlin whatever the sentence says), else the nearest
 * named clause before it in its sentence ("Paris: 12°C, light rain"), else every name of its
 * sentence ("It is 12°C in Paris"), else the last name of the sentence before ("Paris is wet.
 * It is 12°C."). Empty: the claim is said of nothing named, and any observation may support it.
 */
export function subjectCandidates(clauses: readonly Clause[], clause: Clause): string[][] {
  if (clause.names.length > 0) return [clause.names];
  const index = clauses.indexOf(clause);
  const candidates: string[][] = [];
  for (let i = index - 1; i >= 0 && clauses[i]!.sentence === clause.sentence; i--) {
    if (clauses[i]!.names.length > 0) {
      candidates.push(clauses[i]!.names);
      break;
    }
  }
  const sentence = clauses.filter((c) => c.sentence === clause.sentence).flatMap((c) => c.names);
  if (sentence.length > 0) candidates.push([...new Set(sentence)]);
  if (candidates.length === 0) {
    for (let i = index - 1; i >= 0; i--) {
      if (clauses[i]!.names.length > 0) {
        candidates.push([clauses[i]!.names.at(-1)!]);
        break;
      }
    }
  }
  return candidates;
}

/** Whether a name said of a claim is one of an observation's subjects ("new york" and "new york city" agree). */
export function sameSubject(names: readonly string[], subjects: ReadonlySet<string>): boolean {
  for (const n of names) {
    if (subjects.has(n)) return true;
    for (const s of subjects) if (` ${s} `.includes(` ${n} `) || ` ${n} `.includes(` ${s} `)) return true;
  }
  return false;
}
