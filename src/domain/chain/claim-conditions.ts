/**
 * Conditions an answer can state and an observation can contradict (docs/concepts.md, "Grounded
 * answers"): the weather words a reading reports ("light rain", "clear", "overcast"), each in a
 * class, and which classes exclude each other ("sunny" and "a dry day" against "light rain").
 * A small allow-list, so only what it positively knows is judged; any other word is no condition.
 */
import { foldText } from '../text/answer-values';
import type { Clause } from './claim-subjects';
import { isAsciiLetter, nextWord } from './claim-words';

export type ConditionClass = 'sun' | 'cloud' | 'overcast' | 'rain' | 'snow' | 'dry' | 'storm' | 'fog' | 'wind';

const WORDS: Readonly<Record<string, ConditionClass>> = {
  sunny: 'sun',
  sunshine: 'sun',
  clear: 'sun',
  fair: 'sun',
  cloudy: 'cloud',
  overcast: 'overcast',
  rain: 'rain',
  rainy: 'rain',
  raining: 'rain',
  drizzle: 'rain',
  showers: 'rain',
  wet: 'rain',
  snow: 'snow',
  snowy: 'snow',
  snowing: 'snow',
  sleet: 'snow',
  dry: 'dry',
  storm: 'storm',
  stormy: 'storm',
  thunderstorm: 'storm',
  thunderstorms: 'storm',
  fog: 'fog',
  foggy: 'fog',
  mist: 'fog',
  misty: 'fog',
  windy: 'wind',
};

/** Pairs of classes that cannot both hold of one place at one time. */
const EXCLUDES: ReadonlyArray<readonly [ConditionClass, ConditionClass]> = [
  ['sun', 'rain'],
  ['sun', 'snow'],
  ['sun', 'storm'],
  ['sun', 'overcast'],
  ['sun', 'fog'],
  ['dry', 'rain'],
  ['dry', 'snow'],
  ['dry', 'storm'],
];

export function excludes(a: ConditionClass, b: ConditionClass): boolean {
  return EXCLUDES.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
}

/** Words that deny the condition after them in a clause ("no rain", "without showers"). */
const DENYING: ReadonlySet<string> = new Set(['no', 'not', 'without', 'never']);

/** A condition an answer states: the word as written, its class, where, and whether it is denied. */
export interface FoundCondition {
  text: string;
  cls: ConditionClass;
  at: number;
  denied: boolean;
}

/** The condition classes a piece of observed text reports ("partly cloudy" → cloud). */
export function conditionsIn(text: string): ConditionClass[] {
  const found: ConditionClass[] = [];
  for (const word of foldText(text).split(' ')) {
    const cls = WORDS[word];
    if (cls !== undefined && !found.includes(cls)) found.push(cls);
  }
  return found;
}

/**
 * The conditions an answer states, in order. "clear" counts only before "sky", "skies" or
 * "weather", or ending its clause ("21°C, clear"): "it is clear that" states no weather; "dry"
 * not before "run". A denying clause ("isn't raining") or word before it ("no rain") denies it.
 */
export function findConditions(text: string, clauses: readonly Clause[]): FoundCondition[] {
  const found: FoundCondition[] = [];
  // One pass: the clause advances with the text, and a denying word holds until the clause ends.
  let c = 0;
  let deniedSince = -1;
  let i = 0;
  while (i < text.length) {
    if (!isAsciiLetter(text[i]) || isAsciiLetter(text[i - 1])) {
      i++;
      continue;
    }
    let end = i;
    while (isAsciiLetter(text[end])) end++;
    while (c < clauses.length && clauses[c]!.end <= i) c++;
    const clause = clauses[c];
    const word = text.slice(i, end).toLowerCase();
    if (DENYING.has(word) && clause) deniedSince = clause.at;
    const cls = WORDS[word];
    if (cls !== undefined && counts(text, word, end)) {
      const denied = (clause?.negated ?? false) || (clause !== undefined && deniedSince === clause.at);
      found.push({ text: text.slice(i, end), cls, at: i, denied });
    }
    i = end;
  }
  return found;
}

function counts(text: string, word: string, end: number): boolean {
  const next = nextWord(text, end);
  if (word === 'clear') return next === 'sky' || next === 'skies' || next === 'weather' || clauseEnds(text, end);
  if (word === 'dry') return next !== 'run';
  if (word === 'fair') return next === 'weather' || clauseEnds(text, end);
  return true;
}

function clauseEnds(text: string, at: number): boolean {
  let i = at;
  while (text[i] === ' ') i++;
  const ch = text[i];
  return ch === undefined || ch === '.' || ch === ',' || ch === ';' || ch === '\n' || ch === '!' || ch === ')';
}
