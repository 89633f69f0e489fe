import type { SeededRandom } from './seeded-random';

/**
 * Text a model (or the JSON it sends) can hold and code tends to trip on: control characters,
 * lone surrogates (valid in a JS string and in escaped JSON, not in UTF-8), a BOM, bidi and
 * zero-width marks, combining marks, astral emoji, and sometimes 100k+ characters of it.
 * No colons, backticks or label words, so in a text-ReAct reply it never forms a label or fence.
 */
const ODD = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\u000b',
  '\f',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
  '\uFEFF',
  '\u200B',
  '\u200D',
  '\u202E',
  '\u2028',
  '\u2029',
  '\uFFFD',
  '\uFFFF',
  'e\u0301',
  '\u{1F600}',
  '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}',
  '漢字',
  'ß',
  '\u00A0',
] as const;
const WORDS = [
  'the',
  'weather',
  'lookup',
  'value',
  'key',
  'of',
  'alpha',
  'zeta',
  'null',
  'undefined',
  'NaN',
  '{}',
  '[]',
  '"quoted"',
  "it's",
  '\\n',
  '%s',
  '$(rm)',
  '<b>',
  '&amp;',
] as const;

/** The smallest length the brief calls huge. */
export const HUGE_CHARS = 100_000;

export interface NastyOptions {
  /** Make it over HUGE_CHARS long. */
  huge?: boolean;
  /** Newlines allowed (thoughts); not in single-line fields. */
  multiline?: boolean;
}

export function nastyText(r: SeededRandom, options: NastyOptions = {}): string {
  const parts: string[] = [];
  const pieces = r.int(3, 12);
  for (let i = 0; i < pieces; i++) {
    parts.push(r.chance(0.4) ? r.pick(ODD) : r.pick(WORDS));
    if (options.multiline && r.chance(0.15)) parts.push('\n');
  }
  let text = parts.join(r.chance(0.5) ? ' ' : '');
  if (options.huge) {
    const unit = `${text} `;
    text = unit.repeat(Math.ceil((HUGE_CHARS + r.int(1, 50_000)) / unit.length));
  }
  return text;
}
