/**
 * Conclusions an answer draws from numbers (docs/concepts.md, "Grounded answers"): "Paris is the
 * warmer city", "Tokyo is warmer than Paris", "the cheapest is ACME". Each names a winner, what it
 * wins on, and whether the most or the least wins; claim-support.ts checks it against the values
 * the observations give each subject. An allow-list of comparatives: any other word draws nothing.
 */
import { foldText } from '../text/answer-values';
import { MAX_CLAIM_CHARS } from './answer-grounding';
import { clauseAt, readClauses, type Clause } from './claim-subjects';
import { isAsciiLetter, nextWord } from './claim-words';

/** What a comparative compares: a temperature, a price, or the quantity the sentence's figures measure. */
export type Quantity = 'temperature' | 'price' | 'figure';

const COMPARATIVES: Readonly<Record<string, { quantity: Quantity; most: boolean }>> = Object.fromEntries(
  (
    [
      ['temperature', true, 'warmer warmest hotter hottest'],
      ['temperature', false, 'colder coldest cooler coolest'],
      ['price', false, 'cheaper cheapest'],
      ['price', true, 'pricier priciest costlier costliest dearer dearest'],
      ['figure', true, 'higher highest larger largest bigger biggest greater greatest longer longest taller tallest'],
      ['figure', false, 'lower lowest smaller smallest shorter shortest'],
    ] as Array<[Quantity, boolean, string]>
  ).flatMap(([quantity, most, words]) => words.split(' ').map((w) => [w, { quantity, most }] as const)),
);

/** A conclusion found in an answer, before it is checked. */
export interface FoundConclusion {
  /** As written, from its winner to the end of its clause: "Paris is the warmer city". */
  text: string;
  at: number;
  /** The sentence it is in (claim-subjects.ts), for figures that measure the difference ("by 9 degrees"). */
  sentence: number;
  quantity: Quantity;
  /** True when the most wins ("warmer"), false when the least does ("cheaper"). */
  most: boolean;
  /** Who the answer says wins, folded. */
  winner: string[];
  /** Whom it says the winner beats ("than Paris"); empty: every subject of the answer with a value. */
  losers: string[];
}

/** The conclusions of `text`, at most one per clause, in order. */
export function findConclusions(text: string, clauses: readonly Clause[]): FoundConclusion[] {
  const found: FoundConclusion[] = [];
  let tried: Clause | undefined;
  let i = 0;
  while (i < text.length) {
    if (!isWordStart(text, i)) {
      i++;
      continue;
    }
    let end = i;
    while (isAsciiLetter(text[end])) end++;
    const lower = text.slice(i, end).toLowerCase();
    const two = `${lower} ${nextWord(text, end)}`;
    const compared =
      COMPARATIVES[lower] ??
      (two === 'more expensive' || two === 'most expensive' ? { quantity: 'price' as const, most: true } : undefined) ??
      (two === 'less expensive' || two === 'least expensive' ? { quantity: 'price' as const, most: false } : undefined);
    const clause = compared ? clauseAt(clauses, i) : undefined;
    // One reading per clause, so a clause full of comparatives costs what one does.
    if (compared && clause && clause !== tried) {
      tried = clause;
      const conclusion = read(text, clause, i, end, compared);
      if (conclusion) found.push(conclusion);
    }
    i = end;
  }
  return found;
}

function read(
  text: string,
  clause: Clause,
  wordAt: number,
  wordEnd: number,
  compared: { quantity: Quantity; most: boolean },
): FoundConclusion | undefined {
  const tail = text.slice(wordEnd, clause.end);
  const than = ` ${foldText(tail)} `.indexOf(' than ');
  const thanAt = than < 0 ? -1 : wordEnd + tail.toLowerCase().indexOf('than');
  const losers = thanAt < 0 ? [] : namesOf(text.slice(thanAt, clause.end));
  const before = namesOf(text.slice(clause.at, wordAt));
  const after = namesOf(text.slice(wordEnd, thanAt < 0 ? clause.end : thanAt));
  const winner = before.length > 0 ? before : after.length > 0 ? after : (clause.candidates[0] ?? []);
  if (winner.length === 0) return undefined;
  let startAt = before.length > 0 ? firstNameAt(text, clause.at, wordAt, before[0]!) : clause.at;
  while (startAt < clause.end && (text[startAt] === ' ' || text[startAt] === '\n')) startAt++;
  const shown = text
    .slice(startAt, clause.end)
    .replace(/[\s,.;:!?]+$/u, '')
    .trim();
  return {
    text: shown.slice(0, MAX_CLAIM_CHARS),
    at: startAt,
    sentence: clause.sentence,
    quantity: compared.quantity,
    most: compared.most,
    winner,
    losers,
  };
}

function namesOf(text: string): string[] {
  return readClauses(text).flatMap((c) => c.names);
}

/** Where a folded name first appears between `from` and `to` (its clause's start when not found as written). */
function firstNameAt(text: string, from: number, to: number, name: string): number {
  const lower = text.slice(from, to).toLowerCase();
  const at = lower.indexOf(name.split(' ')[0]!);
  return at < 0 ? from : from + at;
}

function isWordStart(text: string, i: number): boolean {
  return isAsciiLetter(text[i]) && !isAsciiLetter(text[i - 1]);
}
