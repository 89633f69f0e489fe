import {
  asSchema,
  distinct,
  firstChoice,
  fitNumber,
  fits,
  fitString,
  integerOr,
  isRecord,
  typeOf,
  type Schema,
} from './fit-to-schema';
import { capitalisedPhrases, escapeRegExp, mentions, quotedStrings, valueAfterName } from './task-text';

/**
 * Schema-valid arguments for a tool, derived from its JSON Schema and the text of the task.
 * The rules, per property (required ones always present, optional ones only when the task names
 * a value for them or the schema has a default):
 * - a `const`, else an `enum` value the text mentions, else the enum's first value;
 * - strings: a value the text gives after the property's name (`order 1234`, `city: "Paris"`),
 *   else by the property's meaning: a place gets the text's capitalised phrase, a path or file the
 *   text's quoted string, else its first path-like token (`auth.py`, `/srv/app`), a body or report
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

interface Slot {
  name: string;
  description: string;
  required: boolean;
}

const MAX_DEPTH = 6;
const PLACE = /\b(city|location|place|country|region|address|destination|town|where)\b/;
const BODY = /\b(content|body|text|report|message|summary|note|notes|markdown|comment)\b/;
const FILE_PATH = /\b(path|file|filename|files)\b/;
/** A token that reads as a file path: a name with an extension, or with a folder before it. */
const PATH_TOKEN = /(?:\.{0,2}\/)?(?:[\w.-]+\/)*[\w-]+\.[A-Za-z0-9]{1,8}\b|(?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]+/g;
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
    if (Array.isArray(schema['enum']))
      return schema['enum'].some((v) => typeof v === 'string' && mentions(this.source.text, v));
    return valueAfterName(this.source.text, slot.name) !== undefined;
  }

  private object(schema: Schema, depth: number): Record<string, unknown> {
    const properties = isRecord(schema['properties']) ? schema['properties'] : {};
    const required = new Set(
      Array.isArray(schema['required']) ? (schema['required'] as unknown[]).filter((r) => typeof r === 'string') : [],
    );
    const out: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(properties)) {
      const property = asSchema(raw);
      const slot: Slot = {
        name,
        description: typeof property['description'] === 'string' ? property['description'] : '',
        required: required.has(name),
      };
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
      if (schema['uniqueItems'] === true && out.some((o) => JSON.stringify(o) === JSON.stringify(item)))
        item = distinct(item, i, items);
      out.push(item);
    }
    return out;
  }

  /** The value the text gives after the slot's name (`to EUR`), else the first one it mentions not taken yet, else the first. */
  private enumValue(options: unknown[], slot: Slot): unknown {
    const text = this.source.text;
    const strings = options.filter((v): v is string => typeof v === 'string');
    const afterName = strings.find((v) =>
      new RegExp(`\\b${escapeRegExp(slot.name)}\\s*[:=]?\\s*${escapeRegExp(v)}\\b`, 'i').test(text),
    );
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
    const named = Number(valueAfterName(this.source.text, slot.name));
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
    const candidates = [
      valueAfterName(this.source.text, slot.name),
      typeof schema['default'] === 'string' ? schema['default'] : undefined,
      ...this.byMeaning(slot),
    ];
    return fitString(
      candidates.filter((c): c is string => c !== undefined && c !== ''),
      schema,
    );
  }

  /** Candidates for a string slot by what its name and description say it holds. */
  private byMeaning(slot: Slot): string[] {
    const about =
      `${slot.name.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2')} ${slot.description}`.toLowerCase();
    const text = this.source.text.trim();
    const quoted = quotedStrings(text);
    const phrase = capitalisedPhrases(text);
    if (PLACE.test(about)) return [...phrase, ...quoted, text];
    // A quoted path is the task's own delimiting, so it goes first; then a bare path-like token.
    if (FILE_PATH.test(about)) return [...quoted, ...(text.match(PATH_TOKEN) ?? []), text];
    if (BODY.test(about)) return [this.source.observed?.trim() || text];
    if (WHOLE_TEXT.test(about)) return [text];
    return [...quoted, ...phrase, text];
  }
}
