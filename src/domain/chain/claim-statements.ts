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
 * The facts the sources state, each a key path and what it says (a JSON value, a clause of prose,
 * the task), indexed by word. A statement restates its sources when each word it says is in them,
 * and a word it pairs with a key is that key's own: "The deployment succeeded" is not restated
 * by `{"deployment": "failed", "rollback": "succeeded"}`, "login and checkPassword in src/auth.ts"
 * is by two search matches.
 */
export class KnownFacts {
  /** Word → the facts that say it. */
  private readonly said = new Map<string, Set<number>>();
  /** Word → the facts it is a key of. */
  private readonly keyOf = new Map<string, Set<number>>();
  private count = 0;

  add(path: string, said: string): void {
    const id = this.count++;
    index(this.keyOf, path, id);
    index(this.said, said, id);
  }

  /**
   * Whether one fact holds every word (in its path or what it says), or the words are all known
   * and each key word among them holds the others in one fact of its own.
   */
  restates(words: readonly string[]): boolean {
    if (!words.every((w) => this.knows(w))) return false;
    if (this.oneFactHolds(words)) return true;
    const keys = words.filter((w) => lookup(this.keyOf, w) !== undefined);
    const values = words.filter((w) => !keys.includes(w));
    if (values.length === 0) return true;
    const valueFacts = values.map((v) => lookup(this.said, v) ?? new Set<number>());
    return keys.every((k) => {
      for (const id of lookup(this.keyOf, k)!) if (valueFacts.every((f) => f.has(id))) return true;
      return false;
    });
  }

  private oneFactHolds(words: readonly string[]): boolean {
    const sets = words.map((w) => union(lookup(this.said, w), lookup(this.keyOf, w)));
    if (sets.length === 0) return true;
    const [smallest, ...rest] = [...sets].sort((x, y) => x.size - y.size);
    for (const id of smallest!) if (rest.every((s) => s.has(id))) return true;
    return false;
  }

  private knows(word: string): boolean {
    return lookup(this.said, word) !== undefined || lookup(this.keyOf, word) !== undefined;
  }
}

function index(map: Map<string, Set<number>>, text: string, id: number): void {
  for (const word of foldText(text).split(' ')) {
    if (word.length < MIN_WORD_CHARS) continue;
    let ids = map.get(word);
    if (!ids) map.set(word, (ids = new Set()));
    ids.add(id);
  }
}

function union(a: Set<number> | undefined, b: Set<number> | undefined): Set<number> {
  if (!a) return b ?? new Set();
  return b ? new Set([...a, ...b]) : a;
}

/** The facts a word is in, a plural by its singular too. */
function lookup(map: ReadonlyMap<string, Set<number>>, word: string): Set<number> | undefined {
  const own = map.get(word);
  const single = word.endsWith('s') ? map.get(word.slice(0, -1)) : undefined;
  return own && single ? new Set([...own, ...single]) : (own ?? single);
}

/** A sentence nothing checked: its text (cut) and where it starts. */
export interface FoundStatement {
  text: string;
  at: number;
}

/**
 * The sentences of `text` no claim was found in (`claimed` are the claims' offsets) that state
 * something one fact of the sources does not, or deny something (a denial the rules cannot
 * settle). Code fences and markdown table rows state nothing of their own. `knownFacts` is asked
 * for the facts at the first sentence that needs them: an answer whose every sentence holds a claim
 * indexes none.
 */
export function uncheckedStatements(
  text: string,
  clauses: readonly Clause[],
  claimed: readonly number[],
  knownFacts: () => KnownFacts,
  maxChars: number,
): FoundStatement[] {
  let known: KnownFacts | undefined;
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
    if (negated || !(known ??= knownFacts()).restates(words))
      found.push({ text: raw.slice(0, maxChars), at: text.indexOf(raw, at) });
  }
  return found;
}
