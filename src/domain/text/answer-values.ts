/**
 * Reading the values an answer states: numbers (with a unit, currency, percent or scale word,
 * number words, thousands separators), dates, yes/no verdicts, and text folded for comparison.
 * One reader for every judgement that compares answers with what a run saw or with each other
 * (claim support, docs/concepts.md "Grounded answers"). Pure, deterministic and sandbox-safe:
 * hand-written scanners, no RegExp with state (the workflow sandbox freezes it).
 */
import { isLetter, isLetterOrDigit, isMark } from './char-class';

/** What a unit measures; numbers compare only within one dimension. A currency is its own dimension (no exchange rates). */
export type Dimension = 'length' | 'mass' | 'time' | 'temperature' | 'percent' | `currency:${string}`;

interface UnitInfo {
  /** The canonical symbol shown and compared ("km", "°C", "USD"). */
  symbol: string;
  dim: Dimension;
  /** Base units per one of this unit (metre, gram, second, kelvin; 1 for percent and currencies). */
  factor: number;
  /** Added after scaling, for temperatures (kelvin = value × factor + offset). */
  offset?: number;
}

const unit = (symbol: string, dim: Dimension, factor: number, offset?: number): UnitInfo =>
  offset === undefined ? { symbol, dim, factor } : { symbol, dim, factor, offset };
const KM = unit('km', 'length', 1000);
const M = unit('m', 'length', 1);
const CM = unit('cm', 'length', 0.01);
const MM = unit('mm', 'length', 0.001);
const MI = unit('mi', 'length', 1609.344);
const FT = unit('ft', 'length', 0.3048);
const YD = unit('yd', 'length', 0.9144);
const KG = unit('kg', 'mass', 1000);
const G = unit('g', 'mass', 1);
const MG = unit('mg', 'mass', 0.001);
const LB = unit('lb', 'mass', 453.59237);
const OZ = unit('oz', 'mass', 28.349523125);
const MS = unit('ms', 'time', 0.001);
const S = unit('s', 'time', 1);
const MIN = unit('min', 'time', 60);
const H = unit('h', 'time', 3600);
const DAY = unit('d', 'time', 86400);
const CELSIUS = unit('°C', 'temperature', 1, 273.15);
const FAHRENHEIT = unit('°F', 'temperature', 5 / 9, 273.15 - (32 * 5) / 9);
const KELVIN = unit('K', 'temperature', 1, 0);
const PERCENT = unit('%', 'percent', 1);
const currency = (code: string): UnitInfo => unit(code, `currency:${code}`, 1);

/** Unit words and abbreviations after a number, lower-cased. Ambiguous ones ("in", "t") are left out. */
const UNIT_WORDS: Readonly<Record<string, UnitInfo>> = Object.fromEntries(
  (
    [
      [KM, 'km kilometre kilometres kilometer kilometers'],
      [M, 'm metre metres meter meters'],
      [CM, 'cm centimetre centimetres centimeter centimeters'],
      [MM, 'mm millimetre millimetres millimeter millimeters'],
      [MI, 'mi mile miles'],
      [FT, 'ft foot feet'],
      [YD, 'yd yard yards'],
      [KG, 'kg kilogram kilograms kilo kilos'],
      [G, 'g gram grams'],
      [MG, 'mg milligram milligrams'],
      [LB, 'lb lbs pound pounds'],
      [OZ, 'oz ounce ounces'],
      [MS, 'ms millisecond milliseconds'],
      [S, 's sec secs second seconds'],
      [MIN, 'min mins minute minutes'],
      [H, 'h hr hrs hour hours'],
      [DAY, 'day days'],
      [CELSIUS, 'celsius'],
      [FAHRENHEIT, 'fahrenheit'],
      [KELVIN, 'kelvin'],
      [PERCENT, 'percent'],
      [currency('USD'), 'dollar dollars'],
      [currency('EUR'), 'euro euros'],
      [currency('JPY'), 'yen'],
    ] as Array<[UnitInfo, string]>
  ).flatMap(([info, words]) => words.split(' ').map((w) => [w, info] as const)),
);
/** Currency codes, upper-case as written, before or after the amount. */
const CURRENCY_CODES: ReadonlySet<string> = new Set([
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CHF',
  'CAD',
  'AUD',
  'CNY',
  'INR',
  'SEK',
  'NOK',
  'DKK',
]);
const CURRENCY_SIGNS: Readonly<Record<string, string>> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY' };
const SCALE_WORDS: Readonly<Record<string, number>> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };
const NUMBER_WORDS: readonly string[] = (
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen ' +
  'eighteen nineteen twenty'
).split(' ');
const TENS: Readonly<Record<string, number>> = {
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
};

/** A number as written in a text. */
export interface NumberValue {
  /** The value in the unit written, scale applied ("68 million" is 68000000). */
  value: number;
  /** The unit written or its canonical symbol ("km", "°C", "%", "USD"); absent for a bare number. */
  unit?: string;
  /** Half of this is how far a rounded figure may be from the exact one, in the unit written ("3.11" → 0.01). */
  precision: number;
  /** The figure before a scale word ("68" of "68 million"), when one was written. */
  mantissa?: number;
  /** True for a number written as a word ("four"). */
  word?: boolean;
  /** The number as written, unit included: "$1,200", "42 km", "3.107 mi". */
  text: string;
  /** Where it starts and ends in the text read. */
  at: number;
  end: number;
}

const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= '0' && ch <= '9';
const isSpace = (ch: string | undefined): boolean => ch === ' ' || ch === '\u00a0' || ch === '\t';

/** The run of letters starting at `at` (empty when none). */
function wordAt(text: string, at: number): string {
  let end = at;
  while (isLetter(text[end])) end++;
  return text.slice(at, end);
}

/** Index past spaces (not line breaks) from `at`. */
function skipSpaces(text: string, at: number): number {
  let i = at;
  while (isSpace(text[i])) i++;
  return i;
}

/** The unit info for a canonical symbol, or undefined for one this reader does not know. */
export function unitOf(symbol: string): UnitInfo | undefined {
  if (CURRENCY_CODES.has(symbol)) return currency(symbol);
  if (symbol === '°C') return CELSIUS;
  if (symbol === '°F') return FAHRENHEIT;
  if (symbol === 'K') return KELVIN;
  if (symbol === '%') return PERCENT;
  return UNIT_WORDS[symbol];
}

/** The unit a word names, as a canonical symbol: "miles" → "mi", "USD" → "USD", "Celsius" → "°C". */
export function unitSymbol(word: string): string | undefined {
  if (CURRENCY_CODES.has(word)) return word;
  return UNIT_WORDS[word.toLowerCase()]?.symbol;
}

/** A unit right after a number (from `at`): its canonical symbol and where it ends. */
function unitAfter(text: string, at: number): { symbol: string; end: number } | undefined {
  const i = skipSpaces(text, at);
  if (text[i] === '%') return { symbol: '%', end: i + 1 };
  if (text[i] === '°') {
    const j = skipSpaces(text, i + 1);
    const w = wordAt(text, j);
    if (w === 'C' || w.toLowerCase() === 'celsius') return { symbol: '°C', end: j + w.length };
    if (w === 'F' || w.toLowerCase() === 'fahrenheit') return { symbol: '°F', end: j + w.length };
    return { symbol: '°C', end: i + 1 };
  }
  const w = wordAt(text, i);
  if (!w) return undefined;
  if (w === 'C' || w === 'F') return { symbol: `°${w}`, end: i + 1 };
  if (w === 'K') return { symbol: 'K', end: i + 1 };
  if (w.toLowerCase() === 'degrees' || w.toLowerCase() === 'degree') {
    const j = skipSpaces(text, i + w.length);
    const next = wordAt(text, j).toLowerCase();
    if (next === 'celsius' || next === 'c') return { symbol: '°C', end: j + next.length };
    if (next === 'fahrenheit' || next === 'f') return { symbol: '°F', end: j + next.length };
    return undefined;
  }
  if (w.toLowerCase() === 'per' && wordAt(text, skipSpaces(text, i + 3)).toLowerCase() === 'cent') {
    return { symbol: '%', end: skipSpaces(text, i + 3) + 4 };
  }
  const symbol = unitSymbol(w);
  return symbol === undefined ? undefined : { symbol, end: i + w.length };
}

/** A scale word after a number ("million"), with where it ends. */
function scaleAfter(text: string, at: number): { factor: number; end: number } | undefined {
  const i = skipSpaces(text, at);
  const w = wordAt(text, i);
  const lower = w.toLowerCase();
  const factor = SCALE_WORDS[lower.endsWith('s') ? lower.slice(0, -1) : lower];
  return factor === undefined ? undefined : { factor, end: i + w.length };
}

/** The figure's digits from `at` (thousands separators and a decimal point allowed), or undefined. */
function digitsAt(text: string, at: number): { value: number; decimals: number; end: number } | undefined {
  let i = at;
  let digits = '';
  while (isDigit(text[i])) digits += text[i++];
  if (!digits) return undefined;
  // "1,200,000": a comma followed by exactly three digits groups thousands.
  while (
    text[i] === ',' &&
    isDigit(text[i + 1]) &&
    isDigit(text[i + 2]) &&
    isDigit(text[i + 3]) &&
    !isDigit(text[i + 4])
  ) {
    digits += text.slice(i + 1, i + 4);
    i += 4;
  }
  let decimals = 0;
  if (text[i] === '.' && isDigit(text[i + 1])) {
    let frac = '';
    i++;
    while (isDigit(text[i])) frac += text[i++];
    decimals = frac.length;
    digits += `.${frac}`;
  }
  return { value: Number(digits), decimals, end: i };
}

/** A number word from `at` ("four", "twenty"), or undefined. */
function numberWordAt(text: string, at: number): { value: number; end: number } | undefined {
  const w = wordAt(text, at);
  const lower = w.toLowerCase();
  const small = NUMBER_WORDS.indexOf(lower);
  const value = small >= 0 ? small : TENS[lower];
  return value === undefined ? undefined : { value, end: at + w.length };
}

/**
 * The number that starts at `at`, or undefined when none does: digits (after an optional
 * currency sign or code and minus sign) or a number word, then an optional scale word and unit.
 * A digit glued to a letter before it ("SmolLM2", "COVID-19") is not a number.
 */
export function readNumberAt(text: string, at: number): NumberValue | undefined {
  let i = at;
  let unit: string | undefined;
  const sign = CURRENCY_SIGNS[text[i] ?? ''];
  if (sign !== undefined) {
    unit = sign;
    i = skipSpaces(text, i + 1);
  } else if (CURRENCY_CODES.has(text.slice(i, i + 3)) && !isLetter(text[i + 3]) && !isLetter(text[i - 1])) {
    const j = skipSpaces(text, i + 3);
    if (!isDigit(text[j])) return undefined;
    unit = text.slice(i, i + 3);
    i = j;
  }
  let negative = false;
  if ((text[i] === '-' || text[i] === '−') && isDigit(text[i + 1]) && !isLetter(text[i - 1]) && !isDigit(text[i - 1])) {
    negative = true;
    i++;
  }
  if (isLetter(text[at - 1]) || (at === i && isDigit(text[at - 1]))) return undefined;
  // The tail of a name or version ("COVID-19", "v1.2") is no number of its own.
  const before = text[at - 1];
  if ((before === '-' || before === '.') && (isLetter(text[at - 2]) || isDigit(text[at - 2]))) return undefined;
  const figure = digitsAt(text, i);
  const word = figure === undefined && unit === undefined && !negative ? numberWordAt(text, i) : undefined;
  if (figure === undefined && word === undefined) return undefined;
  let value = figure ? figure.value : word!.value;
  if (negative) value = -value;
  let precision = figure ? 10 ** -figure.decimals : 1;
  let end = figure ? figure.end : word!.end;
  if (isLetter(text[end]) && figure !== undefined && !unitAfter(text, end)) return undefined;
  let mantissa: number | undefined;
  const scale = scaleAfter(text, end);
  if (scale) {
    mantissa = value;
    value *= scale.factor;
    precision *= scale.factor;
    end = scale.end;
  }
  if (unit === undefined) {
    const after = unitAfter(text, end);
    if (after) {
      unit = after.symbol;
      end = after.end;
    } else {
      const j = skipSpaces(text, end);
      const code = text.slice(j, j + 3);
      if (CURRENCY_CODES.has(code) && !isLetter(text[j + 3])) {
        unit = code;
        end = j + 3;
      }
    }
  }
  return {
    value,
    precision,
    ...(unit !== undefined ? { unit } : {}),
    ...(mantissa !== undefined ? { mantissa } : {}),
    ...(word !== undefined ? { word: true } : {}),
    text: text.slice(at, end),
    at,
    end,
  };
}

/** Every number in `text`, in order (bounded by the text's length; callers cut long texts). */
export function readNumbers(text: string): NumberValue[] {
  const found: NumberValue[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    const starts =
      isDigit(ch) || ch === '-' || ch === '−' || ch! in CURRENCY_SIGNS || (isLetter(ch) && !isLetter(text[i - 1]));
    const n = starts ? readNumberAt(text, i) : undefined;
    if (n) {
      found.push(n);
      i = n.end;
    } else if (isLetter(ch)) {
      i += Math.max(1, wordAt(text, i).length);
    } else if (isDigit(ch)) {
      while (isDigit(text[i]) || isLetter(text[i])) i++;
    } else i++;
  }
  return found;
}

/** The value in its dimension's base unit (metre, gram, second, kelvin), or as written without a unit. */
function inBase(n: Pick<NumberValue, 'value' | 'unit'>): { value: number; dim?: Dimension } {
  const info = n.unit === undefined ? undefined : unitOf(n.unit);
  if (!info) return { value: n.value };
  return { value: n.value * info.factor + (info.offset ?? 0), dim: info.dim };
}

/** A number as a comparable key: "42000 m", "1200 USD", "3.107" (twelve significant digits). */
export function canonicalNumber(n: Pick<NumberValue, 'value' | 'unit'>): string {
  const base = inBase(n);
  const shown = String(Number(base.value.toPrecision(12)));
  const info = n.unit === undefined ? undefined : unitOf(n.unit);
  if (!info) return n.unit === undefined ? shown : `${shown} ${n.unit}`;
  const baseSymbol = { length: 'm', mass: 'g', time: 's', temperature: 'K', percent: '%' } as Record<string, string>;
  return `${shown} ${baseSymbol[info.dim] ?? info.symbol}`;
}

/**
 * Whether two written numbers state the same quantity, allowing for rounding: equal within half
 * the coarser of their precisions ("3.11 mi" and "3.107 mi" agree, "3.2 mi" does not). With a unit
 * on each side they must measure the same dimension and are compared in its base unit ("5 km" and
 * "5000 m" agree, "42 km" and "42 mi" do not); with a unit on one side only, the figures compare as
 * written. Currencies convert to nothing but themselves.
 */
export function sameNumber(a: NumberValue, b: NumberValue): boolean {
  const ua = a.unit === undefined ? undefined : unitOf(a.unit);
  const ub = b.unit === undefined ? undefined : unitOf(b.unit);
  if (a.unit !== undefined && b.unit !== undefined) {
    if (!ua || !ub) return a.unit === b.unit && close(a.value, b.value, Math.max(a.precision, b.precision));
    if (ua.dim !== ub.dim) return false;
    const pa = a.precision * ua.factor;
    const pb = b.precision * ub.factor;
    return close(inBase(a).value, inBase(b).value, Math.max(pa, pb));
  }
  return close(a.value, b.value, Math.max(a.precision, b.precision));
}

function close(x: number, y: number, precision: number): boolean {
  return Math.abs(x - y) <= precision / 2 + 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
}

const MONTHS: readonly string[] =
  'january february march april may june july august september october november december'.split(' ');

/** The month a word names (1–12): full names and three-letter abbreviations ("Sept" too); "May" only in full. */
export function monthOf(word: string): number | undefined {
  const w = word.toLowerCase();
  if (w.length < 3) return undefined;
  const full = MONTHS.indexOf(w);
  if (full >= 0) return full + 1;
  if (w === 'sept') return 9;
  const short = w.length === 3 ? MONTHS.findIndex((m) => m.startsWith(w)) : -1;
  return short >= 0 ? short + 1 : undefined;
}

/** A date as written: its ISO form ("2024-03-12", "2024-03") and where it is. */
export interface DateValue {
  iso: string;
  text: string;
  at: number;
  end: number;
}

const pad = (n: number): string => String(n).padStart(2, '0');

function fourDigits(text: string, at: number): number | undefined {
  for (let k = 0; k < 4; k++) if (!isDigit(text[at + k])) return undefined;
  return isDigit(text[at + 4]) || isDigit(text[at - 1]) ? undefined : Number(text.slice(at, at + 4));
}

function dayAt(text: string, at: number): { day: number; end: number } | undefined {
  let end = at;
  while (isDigit(text[end]) && end - at < 2) end++;
  if (end === at || isDigit(text[end]) || isDigit(text[at - 1])) return undefined;
  const day = Number(text.slice(at, end));
  const suffix = wordAt(text, end).toLowerCase();
  if (['st', 'nd', 'rd', 'th'].includes(suffix)) end += 2;
  else if (isLetter(text[end])) return undefined;
  return day >= 1 && day <= 31 ? { day, end } : undefined;
}

/**
 * The date that starts at `at`, or undefined: ISO "2024-03-12" (a time after it is ignored) or
 * "2024-03", "12 March 2024", "March 12, 2024" and "March 2024". A bare year is a number, not a date.
 */
export function readDateAt(text: string, at: number): DateValue | undefined {
  const year = fourDigits(text, at);
  if (year !== undefined && text[at + 4] === '-' && isDigit(text[at + 5]) && isDigit(text[at + 6])) {
    const month = Number(text.slice(at + 5, at + 7));
    if (month < 1 || month > 12 || isDigit(text[at + 7])) return undefined;
    if (text[at + 7] === '-' && isDigit(text[at + 8]) && isDigit(text[at + 9]) && !isDigit(text[at + 10])) {
      const day = Number(text.slice(at + 8, at + 10));
      if (day >= 1 && day <= 31)
        return { iso: `${year}-${pad(month)}-${pad(day)}`, text: text.slice(at, at + 10), at, end: at + 10 };
    }
    return { iso: `${year}-${pad(month)}`, text: text.slice(at, at + 7), at, end: at + 7 };
  }
  const day = dayAt(text, at);
  if (day) {
    const j = skipSpaces(text, day.end);
    const w = wordAt(text, j);
    const month = monthOf(w);
    if (month === undefined || j === day.end) return undefined;
    const k = skipSpaces(text, j + w.length + (text[j + w.length] === '.' ? 1 : 0));
    const y = k > j + w.length ? fourDigits(text, k) : undefined;
    if (y === undefined) return undefined;
    return { iso: `${y}-${pad(month)}-${pad(day.day)}`, text: text.slice(at, k + 4), at, end: k + 4 };
  }
  if (isLetter(text[at - 1])) return undefined;
  const w = wordAt(text, at);
  const month = monthOf(w);
  if (month === undefined || w[0] !== w[0]!.toUpperCase()) return undefined;
  let j = skipSpaces(text, at + w.length + (text[at + w.length] === '.' ? 1 : 0));
  if (j === at + w.length) return undefined;
  const d = dayAt(text, j);
  if (d) {
    let k = d.end;
    if (text[k] === ',') k++;
    k = skipSpaces(text, k);
    const y = fourDigits(text, k);
    if (y === undefined || k === d.end) return undefined;
    return { iso: `${y}-${pad(month)}-${pad(d.day)}`, text: text.slice(at, k + 4), at, end: k + 4 };
  }
  const y = fourDigits(text, j);
  if (y === undefined) return undefined;
  j += 4;
  return { iso: `${y}-${pad(month)}`, text: text.slice(at, j), at, end: j };
}

/**
 * Every date in `text`, in order. No word starts inside a run of letters, nor of digits, so one
 * that is not a date is passed whole (a character at a time cost four tests each).
 */
export function readDates(text: string): DateValue[] {
  const found: DateValue[] = [];
  let i = 0;
  while (i < text.length) {
    const startsWord = (isDigit(text[i]) && !isDigit(text[i - 1])) || (isLetter(text[i]) && !isLetter(text[i - 1]));
    const d = startsWord ? readDateAt(text, i) : undefined;
    if (d) {
      found.push(d);
      i = d.end;
    } else if (isLetter(text[i])) {
      do i++;
      while (isLetter(text[i]));
    } else if (isDigit(text[i])) {
      do i++;
      while (isDigit(text[i]));
    } else i++;
  }
  return found;
}

const YES: ReadonlySet<string> = new Set(['yes', 'true', 'correct', 'right']);
const NO: ReadonlySet<string> = new Set(['no', 'false', 'incorrect', 'wrong']);

/**
 * The verdict a text opens with: "Yes, …", "No.", "True", "Incorrect: …" → `yes`/`no`; undefined
 * when the first word is not a verdict or runs on into the sentence ("No rain is expected").
 */
export function readVerdict(text: string): 'yes' | 'no' | undefined {
  let i = 0;
  while (i < text.length && !isLetter(text[i])) {
    if (isDigit(text[i])) return undefined;
    i++;
  }
  const w = wordAt(text, i);
  const next = text[skipSpaces(text, i + w.length)];
  const closes = next === undefined || !isLetterOrDigit(next);
  if (!closes) return undefined;
  const lower = w.toLowerCase();
  return YES.has(lower) ? 'yes' : NO.has(lower) ? 'no' : undefined;
}

const NOT_ASCII = /[^\p{ASCII}]/u;

/**
 * Text folded for comparison: compatibility-decomposed, diacritics dropped, lower-cased, every
 * run of characters other than letters and digits one space, trimmed ("Zürich, CH." → "zurich ch").
 */
export function foldText(text: string): string {
  // ASCII (most results) folds the same by the regex engine, not a character at a time in script.
  if (!NOT_ASCII.test(text))
    return text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  const plain = text.normalize('NFKD');
  let out = '';
  let gap = false;
  for (const ch of plain) {
    if (isMark(ch)) continue;
    if (isLetterOrDigit(ch)) {
      if (gap && out) out += ' ';
      out += ch.toLowerCase();
      gap = false;
    } else gap = true;
  }
  return out;
}
