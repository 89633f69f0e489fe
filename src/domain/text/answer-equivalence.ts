import { foldText, readDates, readNumbers, readVerdict, sameNumber, type NumberValue } from './answer-values';
import { rolesConflict, wordRoles, type RoledWord } from './roles';

/**
 * When two answers to one question say the same thing: the rule `ask_model`'s consensus groups
 * models by (docs/tools-llm.md "Asking several models at once"). An answer is read as one kind,
 * and two answers agree only when they are of one kind and equal as that kind:
 * - `verdict`: it opens with yes/no/true/false/correct/incorrect ("Yes.", "yes, it is");
 * - `number`: one number and at most a few words ("4", "four", "about 4 km", "4000 m"), equal
 *   allowing for rounding and units (`sameNumber`);
 * - `date`: one date and at most a few words, equal as ISO dates;
 * - `set`: a short list ("Paris, Lyon" or "Lyon and Paris"), equal as sets of folded items;
 * - `text`: anything else, equal once case, punctuation and diacritics are folded away.
 * A verdict, number or date is said *of* something: two answers whose words play different roles
 * (text/roles.ts: "USD to EUR: 0.92" and "EUR to USD: 0.92") do not agree, though their value is
 * the same. A text or a set keeps its words' order, so roles already part them.
 * Pure and linear in the answer's length: what is compared beyond the first
 * MAX_COMPARED_CHARS characters is folded text only.
 */
export const COMPARED_AS = ['verdict', 'number', 'date', 'set', 'text'] as const;
export type ComparedAs = (typeof COMPARED_AS)[number];

export interface AnswerShape {
  kind: ComparedAs;
  /** The comparable form: "yes", "2024-03-12", "lyon|paris", the folded text; for a number, as written. */
  key: string;
  number?: NumberValue;
  /** The roles the answer's words play (verdicts, numbers and dates): answers that give a word different roles disagree. */
  roles?: RoledWord[];
}

/** Answers longer than this are compared as folded text only (a value's answer is short). */
export const MAX_COMPARED_CHARS = 2_000;
/** Words beside a lone number or date that still leave the answer "that value" ("it is about"). */
const MAX_WORDS_BESIDE_VALUE = 4;
/** A list's items are short; longer parts are prose, not a set. */
const MAX_WORDS_PER_ITEM = 4;
const MAX_ITEMS = 20;

/** Openings that add nothing to an answer ("The answer is 42", "Answer: 42"), folded. */
const LEAD_INS: readonly string[] = [
  'the answer is',
  'the final answer is',
  'final answer',
  'answer',
  'it is',
  'its',
  'that is',
];

/** Reads an answer as one kind with its comparable key. */
export function answerShape(text: string): AnswerShape {
  const folded = withoutLeadIn(foldText(text));
  if (text.length > MAX_COMPARED_CHARS) return { kind: 'text', key: folded };
  const verdict = readVerdict(text.trim());
  if (verdict !== undefined) return { kind: 'verdict', key: verdict, roles: wordRoles(text) };
  const dates = readDates(text);
  if (dates.length === 1 && wordsBeside(folded, foldText(dates[0]!.text)) <= MAX_WORDS_BESIDE_VALUE)
    return { kind: 'date', key: dates[0]!.iso, roles: wordRoles(text) };
  const numbers = dates.length === 0 ? readNumbers(text) : [];
  if (numbers.length === 1 && wordsBeside(folded, foldText(numbers[0]!.text)) <= MAX_WORDS_BESIDE_VALUE)
    return { kind: 'number', key: numbers[0]!.text, number: numbers[0]!, roles: wordRoles(text) };
  const items = listItems(text);
  if (items) return { kind: 'set', key: items.join('|') };
  return { kind: 'text', key: folded };
}

/** Whether two answers say the same thing, by the rules above. */
export function sameAnswer(a: AnswerShape, b: AnswerShape): boolean {
  if (a.kind !== b.kind) return false;
  if (rolesConflict(a.roles ?? [], b.roles ?? [])) return false;
  if (a.kind === 'number' && a.number && b.number) return sameNumber(a.number, b.number);
  return a.key === b.key;
}

function withoutLeadIn(folded: string): string {
  for (const lead of LEAD_INS) {
    if (folded === lead) return folded;
    if (folded.startsWith(`${lead} `)) return folded.slice(lead.length + 1);
  }
  return folded;
}

/** How many words the folded answer has besides the folded value ("about 4 km" beside "4 km": 1). */
function wordsBeside(folded: string, value: string): number {
  const all = folded.split(' ').filter((w) => w.length > 0).length;
  const own = value.split(' ').filter((w) => w.length > 0).length;
  return Math.max(0, all - own);
}

/**
 * The answer as a sorted set of folded items, when it is a short list: items separated by commas,
 * semicolons, a final "and"/"or", or given as bullet lines ("- Paris"); undefined for one item or
 * any long item. Line breaks in prose are spaces.
 */
function listItems(text: string): string[] | undefined {
  const lines = text.split('\n').filter((line) => line.trim().length > 0);
  const bulleted = lines.length > 1 && lines.every((line) => bulletLength(line) > 0);
  const parts: string[] = [];
  let current = '';
  for (const ch of bulleted
    ? lines.map((line) => line.trimStart().slice(bulletLength(line))).join(',')
    : lines.join(' ')) {
    if (ch === ',' || ch === ';') {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  const items = parts
    .map((p, i) => (i === 0 ? withoutLeadIn(foldText(p)) : foldText(p)))
    .flatMap((p) => splitOnJoiner(p))
    .filter((p) => p.length > 0);
  if (items.length < 2 || items.length > MAX_ITEMS) return undefined;
  if (items.some((item) => item.split(' ').length > MAX_WORDS_PER_ITEM)) return undefined;
  return [...new Set(items)].sort();
}

/** How long the marker is that starts a list item ("- ", "* ", "• ", "1. ", "2) "), 0 for none. */
function bulletLength(line: string): number {
  const t = line.trimStart();
  if (t.startsWith('- ') || t.startsWith('* ') || t.startsWith('• ')) return 2;
  let i = 0;
  while (t[i] !== undefined && t[i]! >= '0' && t[i]! <= '9') i++;
  return i > 0 && (t[i] === '.' || t[i] === ')') && t[i + 1] === ' ' ? i + 2 : 0;
}

/** "lyon and paris" → ["lyon", "paris"]; "and paris" → ["paris"]; an item without a joiner stays whole. */
function splitOnJoiner(folded: string): string[] {
  const out: string[] = [];
  let item: string[] = [];
  for (const w of folded.split(' ')) {
    if (w === 'and' || w === 'or') {
      if (item.length > 0) out.push(item.join(' '));
      item = [];
    } else item.push(w);
  }
  if (item.length > 0) out.push(item.join(' '));
  return out;
}
