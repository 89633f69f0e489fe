/**
 * The checkable claims of an answer (docs/concepts.md, "Grounded answers"): numbers with their
 * unit, dates, quoted strings, named entities and a leading yes/no verdict. A deterministic reader
 * of the text, not an understanding of it: it finds what can be compared with the run's
 * observations and leaves the rest of the prose alone. Pure and sandbox-safe.
 */
import { isLetterOrDigit, isUpperLetter } from '../text/char-class';
import { MAX_CHECKED_CLAIMS, MAX_CLAIM_CHARS, type AnswerClaim, type ClaimKind } from './answer-grounding';
import {
  canonicalNumber,
  foldText,
  monthOf,
  readDates,
  readNumbers,
  readVerdict,
  unitSymbol,
} from '../text/answer-values';

/** How much of an answer is read; the rest is not checked. */
export const MAX_CHECKED_ANSWER_CHARS = 32_000;

/** A claim found in an answer, before anything is said about its support. */
export type FoundClaim = Pick<AnswerClaim, 'kind' | 'text' | 'value' | 'at'>;

/** The claims read from an answer, in answer order, each `(kind, value)` once, at most MAX_CHECKED_CLAIMS. */
export interface FoundClaims {
  claims: FoundClaim[];
  /** Distinct claims past the bound. */
  omitted: number;
}

/**
 * Capitalised words that open sentences and phrases without naming anything: left out of named
 * entities ("The", "According", "Based"), as are months, weekdays and unit words.
 */
const NOT_NAMES: ReadonlySet<string> = new Set(
  (
    'a about according actually additionally after all also alternatively although an and answer approximately are ' +
    'done ' +
    'around as at based because before both but by can checking converting could currently did do does each either ' +
    'every final finally first for from given he her here his how however i if in is it its just let looking me ' +
    'moreover most my no none not note now of ok okay on only or our overall please result roughly second she should ' +
    'since so some step still summary sure that the their then there therefore these they third this those thus to ' +
    'today tomorrow true false correct incorrect unfortunately using was we were what when where which while who why ' +
    'will with would yes yesterday you your monday tuesday wednesday thursday friday saturday sunday'
  ).split(' '),
);

const isUpper = isUpperLetter;
const isWordChar = (ch: string | undefined): boolean =>
  isLetterOrDigit(ch) || ch === '_' || ch === "'" || ch === '’' || ch === '-';

/** Characters claimed by a quote or a date, so numbers and names inside them are not read twice. */
class Taken {
  private readonly spans: Array<[number, number]> = [];
  add(at: number, end: number): void {
    this.spans.push([at, end]);
  }
  covers(at: number, end: number): boolean {
    return this.spans.some(([a, b]) => at < b && end > a);
  }
}

const QUOTE_PAIRS: ReadonlyArray<[string, string]> = [
  ['"', '"'],
  ['“', '”'],
  ['‘', '’'],
  ["'", "'"],
  ['`', '`'],
];

/** Quoted strings of at least three characters on one line; a quote mark glued to a letter (an apostrophe) opens none. */
function quotes(text: string, taken: Taken): FoundClaim[] {
  const found: FoundClaim[] = [];
  for (let i = 0; i < text.length; i++) {
    const pair = QUOTE_PAIRS.find(([open]) => open === text[i]);
    if (!pair || taken.covers(i, i + 1)) continue;
    if ((pair[0] === "'" || pair[0] === '‘') && isLetterOrDigit(text[i - 1])) continue;
    let end = i + 1;
    while (end < text.length && text[end] !== pair[1] && text[end] !== '\n') end++;
    if (text[end] !== pair[1]) continue;
    if (pair[1] === "'" && isLetterOrDigit(text[end + 1])) continue;
    const inner = text.slice(i + 1, end).trim();
    taken.add(i, end + 1);
    // A JSON key ("value": …) names a field, not a quotation.
    const key = text
      .slice(end + 1)
      .trimStart()
      .startsWith(':');
    if (inner.length >= 3 && !key) {
      const shown = text.slice(i, end + 1);
      found.push({
        kind: 'quote',
        text: shown.length > MAX_CLAIM_CHARS ? shown.slice(0, MAX_CLAIM_CHARS) : shown,
        value: foldText(inner).slice(0, MAX_CLAIM_CHARS),
        at: i,
      });
    }
    i = end;
  }
  return found.filter((q) => q.value.length > 0);
}

/** Where sentences start: the text's start, after `.`, `!`, `?` and a space, a line break, a list marker. */
function sentenceStarts(text: string): Set<number> {
  const starts = new Set<number>();
  let expect = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (isLetterOrDigit(ch)) {
      if (expect) starts.add(i);
      const at = i;
      while (i + 1 < text.length && isWordChar(text[i + 1])) i++;
      // A list marker ("2)", "3.") leaves the sentence still to start.
      if (!/^\d+$/.test(text.slice(at, i + 1))) expect = false;
    } else if (ch === '.' || ch === '!' || ch === '?' || ch === '\n') expect = true;
  }
  return starts;
}

/** Whether a capitalised word names nothing by itself: an opener, a month, a unit word. */
export function notAName(word: string): boolean {
  const lower = word.toLowerCase();
  return NOT_NAMES.has(lower) || monthOf(word) !== undefined || unitSymbol(word) !== undefined;
}

/**
 * Named entities: runs of capitalised words ("New York", "Marseille", "NASA"), openers stripped. A
 * single word that opens a sentence is left out ("Converting", "Paris is…"): capitalised by
 * grammar, it says nothing about being a name. Headings and a table's header row are not read.
 */
function entities(text: string, taken: Taken): FoundClaim[] {
  const starts = sentenceStarts(text);
  const found: FoundClaim[] = [];
  let run: Array<{ word: string; at: number }> = [];
  const flush = (): void => {
    while (run.length > 0 && notAName(run[0]!.word)) run.shift();
    while (run.length > 0 && notAName(run.at(-1)!.word)) run.pop();
    if (run.length === 0 || (run.length === 1 && starts.has(run[0]!.at))) {
      run = [];
      return;
    }
    const first = run[0]!;
    const last = run.at(-1)!;
    const shown = text.slice(first.at, last.at + last.word.length).slice(0, MAX_CLAIM_CHARS);
    found.push({ kind: 'entity', text: shown, value: foldText(shown), at: first.at });
    run = [];
  };
  let heading = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if ((i === 0 || text[i - 1] === '\n') && (ch === '#' || tableHeader(text, i))) heading = true;
    if (ch === '\n') heading = false;
    if (!isLetterOrDigit(ch)) {
      // Only a single space joins the words of one name.
      if (!(ch === ' ' && run.length > 0 && isUpper(text[i + 1]))) flush();
      continue;
    }
    let end = i;
    while (end < text.length && isWordChar(text[end])) end++;
    // A possessive names the same thing: "Japan's" is the claim "Japan".
    const word = text
      .slice(i, end)
      .replace(/['’]s$/u, '')
      .replace(/['’-]+$/u, '');
    const letters = word.replace(/[^\p{L}]/gu, '');
    if (
      !heading &&
      isUpper(ch) &&
      letters.length >= 2 &&
      !taken.covers(i, end) &&
      !codeName(word) &&
      unitSymbol(word) === undefined
    ) {
      run.push({ word, at: i });
    } else flush();
    i = end - 1;
  }
  flush();
  return found;
}

/** Whether the line at `at` heads a markdown table: it starts with `|` and the next line is its `|---|` rule. */
function tableHeader(text: string, at: number): boolean {
  if (text[at] !== '|') return false;
  const next = text.indexOf('\n', at);
  if (next < 0) return false;
  const rule = text.slice(next + 1, next + 8).replace(/[\s|:]/gu, '');
  return rule.startsWith('---');
}

/** A name from code, not of a thing: `ANTHROPIC_API_KEY`, `ToolRefused`, `WIDGET-1`. */
export function codeName(word: string): boolean {
  return word.includes('_') || /\p{Ll}\p{Lu}/u.test(word) || /\p{N}/u.test(word);
}

/** Whether a number at `at` is a list marker ("1. ", "2) " at a line's start). */
function listMarker(text: string, at: number, end: number): boolean {
  let i = at - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  const lineStart = i < 0 || text[i] === '\n';
  return (
    lineStart && (text[end] === '.' || text[end] === ')') && (text[end + 1] === ' ' || text[end + 1] === undefined)
  );
}

/** Numbers worth checking: not in a date or quote, not a list marker or a clock time, a number word only with a unit or scale. */
function numbers(text: string, taken: Taken): FoundClaim[] {
  return readNumbers(text).flatMap((n) => {
    if (taken.covers(n.at, n.end) || listMarker(text, n.at, n.end)) return [];
    if (n.word && n.unit === undefined && n.mantissa === undefined) return [];
    // "1 EUR = …", "1 call", "0 errors": one and zero count things more often than they state them.
    if ((n.value === 0 || n.value === 1) && n.mantissa === undefined && !n.text.includes('.')) return [];
    const clock =
      (text[n.end] === ':' && /\d/.test(text[n.end + 1] ?? '')) ||
      (text[n.at - 1] === ':' && /\d/.test(text[n.at - 2] ?? ''));
    if (clock) return [];
    return [{ kind: 'number' as const, text: n.text.slice(0, MAX_CLAIM_CHARS), value: canonicalNumber(n), at: n.at }];
  });
}

/**
 * The claims of `answer` (its first MAX_CHECKED_ANSWER_CHARS), in answer order: a leading verdict,
 * quoted strings, dates, numbers and named entities; each `(kind, value)` once (its first
 * occurrence; a number once per `scopeOf` its offset, so "12°C" said of two cities is two claims),
 * at most MAX_CHECKED_CLAIMS, the others counted in `omitted`. Deterministic.
 */
export function extractClaims(answer: string, scopeOf?: (at: number) => string): FoundClaims {
  const text = answer.slice(0, MAX_CHECKED_ANSWER_CHARS);
  const taken = new Taken();
  const all: FoundClaim[] = [];
  const verdict = readVerdict(text);
  if (verdict) {
    const at = text.search(/\p{L}/u);
    const word = text.slice(at).split(/[^\p{L}]/u)[0]!;
    all.push({ kind: 'verdict', text: word, value: verdict, at });
    taken.add(at, at + word.length);
  }
  all.push(...quotes(text, taken));
  for (const d of readDates(text)) {
    if (taken.covers(d.at, d.end)) continue;
    all.push({ kind: 'date', text: d.text, value: d.iso, at: d.at });
    taken.add(d.at, d.end);
  }
  all.push(...numbers(text, taken), ...entities(text, taken));
  all.sort((a, b) => a.at - b.at);
  const seen = new Set<string>();
  const distinct = all.filter((c) => {
    const key = `${claimKey(c.kind, c.value)}${c.kind === 'number' && scopeOf ? `@${scopeOf(c.at)}` : ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { claims: distinct.slice(0, MAX_CHECKED_CLAIMS), omitted: Math.max(0, distinct.length - MAX_CHECKED_CLAIMS) };
}

/** The identity of a claim for deduplication and exclusion: its kind and comparable value. */
export function claimKey(kind: ClaimKind, value: string): string {
  return `${kind}:${value}`;
}
