import { words } from './tool-relevance';

/**
 * Schema-valid arguments for a tool, derived from its JSON Schema and the text of the task.
 * The rules, per property (required ones always present, optional ones only when the task names
 * a value for them or the schema has a default):
 * - a `const`, else an `enum` value the text mentions, else the enum's first value;
 * - strings: a value the text gives after the property's name (`order 1234`, `city: "Paris"`),
 *   else by the property's meaning: a place gets the text's capitalised phrase, a body or report
 *   gets what the run observed so far, a query or task gets the whole text, anything else a
 *   quoted string, a capitalised phrase or the text; then fitted to format, pattern and length;
 * - numbers: the text's next unused number that fits the bounds, else the default, else the
 *   minimum (or 0), fitted to the bounds and to `integer` / `multipleOf`;
 * - booleans: the default, else false; arrays: `minItems` (at least one) derived items;
 *   objects: recursively; `anyOf`/`oneOf`/type lists: the first non-null choice.
 * Pure and deterministic.
 */
export function deriveArguments(schema: unknown, source: ArgumentSource): Record<string, unknown> {
  const value = new Deriver(source).value(asSchema(schema), { name: '', description: '', required: true }, 0);
  return isRecord(value) ? value : {};
}

export interface ArgumentSource {
  /** What the task (and any answers from people) say. */
  text: string;
  /** What the run observed so far, for a property that carries a body or report. */
  observed?: string;
}

type Schema = Record<string, unknown>;
interface Slot {
  name: string;
  description: string;
  required: boolean;
}

const MAX_DEPTH = 6;
const PLACE = /\b(city|location|place|country|region|address|destination|town|where)\b/;
const BODY = /\b(content|body|text|report|message|summary|note|notes|markdown|comment)\b/;
const WHOLE_TEXT = /\b(query|q|search|task|prompt|question|input|topic|keywords?|term|request|goal|instructions?)\b/;
const FORMATS: Record<string, string> = {
  email: 'offline@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  hostname: 'example.com',
};

class Deriver {
  private numberCursor = 0;
  private readonly usedEnumValues = new Set<string>();
  private readonly numbers: number[];

  constructor(private readonly source: ArgumentSource) {
    this.numbers = [...source.text.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
  }

  value(schema: Schema, slot: Slot, depth: number): unknown {
    if ('const' in schema) return schema['const'];
    const choice = firstChoice(schema);
    if (choice) return this.value(choice, slot, depth);
    if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return this.enumValue(schema['enum'], slot);
    switch (typeOf(schema)) {
      case 'object':
        return depth >= MAX_DEPTH ? {} : this.object(schema, depth);
      case 'array':
        return this.array(schema, slot, depth);
      case 'integer':
      case 'number':
        return this.number(schema, slot);
      case 'boolean':
        return typeof schema['default'] === 'boolean' ? schema['default'] : false;
      case 'null':
        return null;
      default:
        return this.string(schema, slot);
    }
  }

  /** Whether the text gives this slot a value of its own (so an optional property is worth sending). */
  named(schema: Schema, slot: Slot): boolean {
    if (Array.isArray(schema['enum'])) return schema['enum'].some((v) => typeof v === 'string' && mentions(this.source.text, v));
    return this.namedValue(slot) !== undefined;
  }

  private object(schema: Schema, depth: number): Record<string, unknown> {
    const properties = isRecord(schema['properties']) ? schema['properties'] : {};
    const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as unknown[]).filter((r) => typeof r === 'string') : []);
    const out: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(properties)) {
      const property = asSchema(raw);
      const slot: Slot = { name, description: typeof property['description'] === 'string' ? property['description'] : '', required: required.has(name) };
      if (!slot.required && !this.named(property, slot) && !('default' in property)) continue;
      out[name] = this.value(property, slot, depth + 1);
    }
    // A required property the schema does not describe still gets a value.
    for (const name of required) if (!(name in out)) out[name] = this.source.text || name;
    return out;
  }

  private array(schema: Schema, slot: Slot, depth: number): unknown[] {
    const min = integerOr(schema['minItems'], 0);
    const max = integerOr(schema['maxItems'], Number.POSITIVE_INFINITY);
    const count = Math.min(Math.max(min, 1), max);
    const items = asSchema(schema['items']);
    const out: unknown[] = [];
    for (let i = 0; i < count; i++) {
      let item = depth >= MAX_DEPTH ? null : this.value(items, slot, depth + 1);
      // Distinct items, for `uniqueItems`: strings get a suffix, numbers move up a step.
      if (schema['uniqueItems'] === true && out.some((o) => JSON.stringify(o) === JSON.stringify(item))) item = distinct(item, i, items);
      out.push(item);
    }
    return out;
  }

  /** The value the text gives after the slot's name (`to EUR`), else the first one it mentions not taken yet, else the first. */
  private enumValue(options: unknown[], slot: Slot): unknown {
    const text = this.source.text;
    const strings = options.filter((v): v is string => typeof v === 'string');
    const afterName = strings.find((v) => new RegExp(`\\b${escapeRegExp(slot.name)}\\s*[:=]?\\s*${escapeRegExp(v)}\\b`, 'i').test(text));
    const mentioned = strings
      .map((v) => ({ v, at: text.search(new RegExp(`\\b${escapeRegExp(v)}\\b`, 'i')) }))
      .filter((m) => m.at >= 0)
      .sort((a, b) => a.at - b.at)
      .map((m) => m.v);
    const chosen = afterName ?? mentioned.find((v) => !this.usedEnumValues.has(v)) ?? mentioned[0] ?? options[0];
    if (typeof chosen === 'string') this.usedEnumValues.add(chosen);
    return chosen;
  }

  private number(schema: Schema, slot: Slot): number {
    const integer = typeOf(schema) === 'integer';
    const named = Number(this.namedValue(slot));
    const fromText = [Number.isFinite(named) ? named : undefined, ...this.numbers.slice(this.numberCursor)].find(
      (n) => n !== undefined && fits(n, schema, integer),
    );
    if (fromText !== undefined) {
      const at = this.numbers.indexOf(fromText, this.numberCursor);
      if (at >= 0) this.numberCursor = at + 1;
      return fromText;
    }
    if (typeof schema['default'] === 'number' && fits(schema['default'], schema, integer)) return schema['default'];
    return fitNumber(schema, integer);
  }

  private string(schema: Schema, slot: Slot): string {
    const format = typeof schema['format'] === 'string' ? FORMATS[schema['format']] : undefined;
    if (format) return format;
    const candidates = [this.namedValue(slot), typeof schema['default'] === 'string' ? schema['default'] : undefined, ...this.byMeaning(slot)];
    return fitString(candidates.filter((c): c is string => c !== undefined && c !== ''), schema);
  }

  /** Candidates for a string slot by what its name and description say it holds. */
  private byMeaning(slot: Slot): string[] {
    const about = `${slot.name.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2')} ${slot.description}`.toLowerCase();
    const text = this.source.text.trim();
    const quoted = quotedStrings(text);
    const phrase = capitalisedPhrases(text);
    if (PLACE.test(about)) return [...phrase, ...quoted, text];
    if (BODY.test(about)) return [this.source.observed?.trim() || text];
    if (WHOLE_TEXT.test(about)) return [text];
    return [...quoted, ...phrase, text];
  }

  /** A value the text gives right after a word of the slot's name: `order 1234`, `city: "Paris"`. */
  private namedValue(slot: Slot): string | undefined {
    const text = this.source.text;
    for (const word of words(slot.name)) {
      // The name matches in any case; the value after it is case-sensitive (a capitalised phrase).
      for (const key of text.matchAll(new RegExp(`\\b${word}s?\\b\\s*(?:[:=]|is\\b|of\\b|#)?\\s*`, 'gi'))) {
        const rest = text.slice(key.index + key[0].length);
        const m = /^(?:"([^"]+)"|'([^']+)'|([A-Z][\p{L}\d-]*(?: [A-Z][\p{L}\d-]*)*|[\w-]*\d[\w.-]*))/u.exec(rest);
        const value = m?.[1] ?? m?.[2] ?? m?.[3];
        if (value) return value.replace(/[.,;]$/, '');
      }
    }
    return undefined;
  }
}

/** Fits the first workable candidate to the schema's pattern and length, or builds one that does. */
function fitString(candidates: readonly string[], schema: Schema): string {
  const min = integerOr(schema['minLength'], 0);
  const max = integerOr(schema['maxLength'], Number.POSITIVE_INFINITY);
  const pattern = typeof schema['pattern'] === 'string' ? safeRegExp(schema['pattern']) : undefined;
  const extension = typeof schema['pattern'] === 'string' ? /\\\.(\w+)\)?\$?$/.exec(schema['pattern'])?.[1] : undefined;
  const shaped = [...candidates, 'offline'].flatMap((c) => {
    const slug = c.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'offline';
    return [c, slug, ...(extension ? [`${slug}.${extension}`] : []), slug.replace(/-/g, '_')];
  });
  const fitted = shaped.map((c) => fitLength(c, min, max));
  return fitted.find((c) => !pattern || pattern.test(c)) ?? fitted[0]!;
}

function fitLength(value: string, min: number, max: number): string {
  const cut = [...value].slice(0, max).join('');
  return cut.length >= min ? cut : cut.padEnd(min, '.');
}

function fits(n: number, schema: Schema, integer: boolean): boolean {
  if (integer && !Number.isInteger(n)) return false;
  if (typeof schema['minimum'] === 'number' && n < schema['minimum']) return false;
  if (typeof schema['maximum'] === 'number' && n > schema['maximum']) return false;
  if (typeof schema['exclusiveMinimum'] === 'number' && n <= schema['exclusiveMinimum']) return false;
  if (typeof schema['exclusiveMaximum'] === 'number' && n >= schema['exclusiveMaximum']) return false;
  if (typeof schema['multipleOf'] === 'number' && schema['multipleOf'] > 0 && !isMultiple(n, schema['multipleOf'])) return false;
  return true;
}

/** The allowed number nearest the lower bound (0 when there is no bound and 0 fits). */
function fitNumber(schema: Schema, integer: boolean): number {
  const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  const step = (num('multipleOf') ?? 0) > 0 ? num('multipleOf')! : integer ? 1 : undefined;
  const exMin = num('exclusiveMinimum');
  const exMax = num('exclusiveMaximum');
  const low = Math.max(num('minimum') ?? Number.NEGATIVE_INFINITY, exMin ?? Number.NEGATIVE_INFINITY);
  const high = Math.min(num('maximum') ?? Number.POSITIVE_INFINITY, exMax ?? Number.POSITIVE_INFINITY);
  let n: number;
  if (Number.isFinite(low)) {
    n = step ? Math.ceil(low / step) * step : low;
    if (exMin !== undefined && n <= exMin) n = step ? n + step : Number.isFinite(high) ? (exMin + high) / 2 : exMin + 1;
  } else {
    const top = Math.min(0, high);
    n = step ? Math.floor(top / step) * step : top;
    if (exMax !== undefined && n >= exMax) n = step ? n - step : exMax - 1;
  }
  return Number(n.toPrecision(12));
}

function isMultiple(n: number, step: number): boolean {
  const q = n / step;
  return Math.abs(q - Math.round(q)) < 1e-9;
}

function distinct(item: unknown, index: number, schema: Schema): unknown {
  if (typeof item === 'string') return fitString([`${item} ${index + 1}`, `${index + 1}`], schema);
  if (typeof item === 'number') {
    const step = typeof schema['multipleOf'] === 'number' ? schema['multipleOf'] : 1;
    return item + index * step;
  }
  return item;
}

/** The first non-null choice of an `anyOf`, `oneOf` or type list, merged with the rest of the schema. */
function firstChoice(schema: Schema): Schema | undefined {
  const { anyOf, oneOf, type, ...rest } = schema;
  const list = [anyOf, oneOf].find(Array.isArray) as unknown[] | undefined;
  if (list) return { ...rest, ...(type !== undefined ? { type } : {}), ...asSchema(list.find((s) => asSchema(s)['type'] !== 'null') ?? list[0]) };
  if (Array.isArray(type)) return { ...rest, type: (type as unknown[]).find((t) => t !== 'null') ?? type[0] };
  return undefined;
}

function typeOf(schema: Schema): string {
  if (typeof schema['type'] === 'string') return schema['type'];
  if (isRecord(schema['properties'])) return 'object';
  if (schema['items'] !== undefined) return 'array';
  return 'string';
}

function mentions(text: string, value: string): boolean {
  return new RegExp(`\\b${escapeRegExp(value)}\\b`, 'i').test(text);
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Quoted parts of a text, in order. */
function quotedStrings(text: string): string[] {
  return [...text.matchAll(/"([^"]+)"|“([^”]+)”|'([^']{2,})'/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** A sentence's ordinary first words, never taken for a name. */
const OPENERS = /^(I|Call|Use|What|Which|Who|How|When|Where|Why|Please|Compare|Get|Find|Show|Tell|Look|Check|Ask|Then|And|The|Is|Are|Can|Could|Would|Weather)$/;

/**
 * Runs of capitalised words, as names of places, people or things: those inside a sentence
 * first, then those that open one ("Paris is nice", or an answer that is just "Paris").
 */
function capitalisedPhrases(text: string): string[] {
  const inside: string[] = [];
  const opening: string[] = [];
  for (const m of text.matchAll(/[A-Z][\p{L}\d'-]*(?:[ \t]+[A-Z][\p{L}\d'-]*)*/gu)) {
    const atStart = /(^|[.!?:\n]\s*)$/.test(text.slice(0, m.index));
    const parts = m[0].split(/[ \t]+/).map((w) => w.replace(/'s$/, ''));
    while (parts.length > 0 && OPENERS.test(parts[0]!)) parts.shift();
    const phrase = parts.join(' ');
    if (phrase) (atStart && phrase === m[0].replace(/'s$/, '') ? opening : inside).push(phrase);
  }
  return [...inside, ...opening];
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

function integerOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}

function asSchema(value: unknown): Schema {
  return isRecord(value) ? value : {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
