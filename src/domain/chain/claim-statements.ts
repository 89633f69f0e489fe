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

/** How many words of one sentence are looked up; a longer sentence is read by its first ones. */
const MAX_SENTENCE_WORDS = 24;
/** How many sentences are read; past them, an answer's statements go unread (its claims do not). */
const MAX_READ_SENTENCES = 400;

/**
 * The facts the sources state, each a short text (a JSON value with its key path, a clause of
 * prose, the task), indexed by word: a statement restates its sources when one fact holds every
 * word it says, not when its words are scattered over several ("The deployment succeeded" is not
 * restated by `{"deployment": "failed", "rollback": "succeeded"}`).
 */
export class KnownFacts {
  private readonly byWord = new Map<string, Set<number>>();
  private count = 0;

  add(text: string): void {
    const id = this.count++;
    for (const word of foldText(text).split(' ')) {
      if (word.length < MIN_WORD_CHARS) continue;
      let ids = this.byWord.get(word);
      if (!ids) this.byWord.set(word, (ids = new Set()));
      ids.add(id);
    }
  }

  /** Whether one fact holds every word (a plural by its singular too). */
  restates(words: readonly string[]): boolean {
    const lists = words.map((w) => {
      const own = this.byWord.get(w);
      const single = w.endsWith('s') ? this.byWord.get(w.slice(0, -1)) : undefined;
      return own && single ? new Set([...own, ...single]) : (own ?? single);
    });
    if (lists.some((l) => l === undefined)) return false;
    if (lists.length === 0) return true;
    const [smallest, ...rest] = [...(lists as Array<Set<number>>)].sort((x, y) => x.size - y.size);
    for (const id of smallest!) if (rest.every((l) => l.has(id))) return true;
    return false;
  }
}

/** A sentence nothing checked: its text (cut) and where it starts. */
export interface FoundStatement {
  text: string;
  at: number;
}

/**
 * The sentences of `text` no claim was found in (`claimed` are the claims' offsets) that state
 * something one fact of the sources does not, or deny something (a denial the rules cannot
 * settle). Code fences and markdown table rows state nothing of their own.
 */
export function uncheckedStatements(
  text: string,
  clauses: readonly Clause[],
  claimed: readonly number[],
  known: KnownFacts,
  maxChars: number,
): FoundStatement[] {
  const sentences = new Map<number, { at: number; end: number; negated: boolean }>();
  for (const c of clauses) {
    const s = sentences.get(c.sentence);
    sentences.set(
      c.sentence,
      s ? { at: s.at, end: c.end, negated: s.negated || c.negated } : { at: c.at, end: c.end, negated: c.negated },
    );
  }
  const sorted = [...claimed].sort((x, y) => x - y);
  let next = 0;
  const found: FoundStatement[] = [];
  let read = 0;
  for (const { at, end, negated } of sentences.values()) {
    while (next < sorted.length && sorted[next]! < at) next++;
    if (next < sorted.length && sorted[next]! < end) continue;
    if (++read > MAX_READ_SENTENCES) break;
    // A bracketed label opening the answer ("[offline model]") names its author; it states nothing.
    const raw = (at === 0 ? text.slice(at, end).replace(/^\s*\[[^\]\n]{1,40}\]/u, '') : text.slice(at, end)).trim();
    if (raw === '' || raw.endsWith('?') || raw.startsWith('```') || raw.startsWith('|')) continue;
    const words = [...new Set(foldText(raw).split(' '))]
      .filter((w) => w.length >= MIN_WORD_CHARS && !COMMON.has(w) && !/^\d/.test(w))
      .slice(0, MAX_SENTENCE_WORDS);
    if (negated || !known.restates(words)) found.push({ text: raw.slice(0, maxChars), at: text.indexOf(raw, at) });
  }
  return found;
}
