/**
 * Statements the rules cannot check (docs/concepts.md, "Grounded answers"): a sentence of the
 * answer in which no number, date, quote, name, verdict, condition or conclusion was found, and
 * which says something its sources do not (a word of four letters or more, other than common
 * ones, that no observation, task, context or person's words hold). "The deployment succeeded"
 * after a result saying `"status": "failed"` is such a sentence: it is named as unchecked, so the
 * answer is not called grounded on the strength of its other sentences. A question, or a sentence
 * that only restates the sources' words, states nothing new. Pure and linear.
 */
import { foldText } from '../text/answer-values';
import type { Clause } from './claim-subjects';

/** Words that carry no claim of their own. */
const COMMON: ReadonlySet<string> = new Set(
  (
    'about above after again against also always among another answer anything around based because been before ' +
    'being below between both cannot could data does doing done down during each either else even every found from ' +
    'further give given gives have having help here hope however into just know last least less like made make many ' +
    'more most much must need next none note only other over please ready really result results right same seems ' +
    'several should show shows since some still such sure than that their them then there these they this those ' +
    'through tool tools under until upon very want well were what when where whether which while will with within ' +
    'without would your yours current currently today reported reports according shown called returned'
  ).split(' '),
);
const MIN_WORD_CHARS = 4;

/** A sentence nothing checked: its text (cut) and where it starts. */
export interface FoundStatement {
  text: string;
  at: number;
}

/**
 * The sentences of `text` no claim was found in (`claimed` are the claims' offsets) that state a
 * word the sources (`known`, folded and space-padded) do not hold.
 */
export function uncheckedStatements(
  text: string,
  clauses: readonly Clause[],
  claimed: readonly number[],
  known: string,
  maxChars: number,
): FoundStatement[] {
  const sentences = new Map<number, { at: number; end: number }>();
  for (const c of clauses) {
    const s = sentences.get(c.sentence);
    sentences.set(c.sentence, s ? { at: s.at, end: c.end } : { at: c.at, end: c.end });
  }
  const found: FoundStatement[] = [];
  for (const { at, end } of sentences.values()) {
    if (claimed.some((c) => c >= at && c < end)) continue;
    // A bracketed label opening the answer ("[offline model]") names its author; it states nothing.
    const raw = (at === 0 ? text.slice(at, end).replace(/^\s*\[[^\]\n]{1,40}\]/u, '') : text.slice(at, end)).trim();
    if (raw === '' || raw.endsWith('?')) continue;
    const words = foldText(raw).split(' ');
    if (words.some((w) => newWord(w, known))) found.push({ text: raw.slice(0, maxChars), at: text.indexOf(raw, at) });
  }
  return found;
}

/** A word of the sentence its sources do not hold (a plural's singular counts as held). */
function newWord(word: string, known: string): boolean {
  if (word.length < MIN_WORD_CHARS || COMMON.has(word) || /^\d/.test(word)) return false;
  if (known.includes(` ${word} `)) return false;
  return !(word.endsWith('s') && known.includes(` ${word.slice(0, -1)} `));
}
