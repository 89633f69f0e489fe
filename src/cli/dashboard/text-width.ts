import { terminalSafe } from '../render/terminal-safe';

/**
 * Columns a character takes in a terminal: 0 for combining marks and zero-width joiners, 2 for
 * East Asian wide characters and most emoji, else 1. Approximate (no full Unicode table), erring
 * wide, so a row never runs past the screen's edge and wraps.
 */
function columns(cp: number): number {
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200d) || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  const wide =
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd);
  return wide ? 2 : 1;
}

/** The columns `text` (plain, no escape sequences) takes. */
export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += columns(ch.codePointAt(0)!);
  return width;
}

/** `text` cut to at most `max` columns, ending with `…` when cut. */
export function clipWidth(text: string, max: number): string {
  if (max <= 0) return '';
  if (textWidth(text) <= max) return text;
  let out = '';
  let width = 0;
  for (const ch of text) {
    const w = columns(ch.codePointAt(0)!);
    if (width + w > max - 1) break;
    out += ch;
    width += w;
  }
  return `${out}…`;
}

/** `text` clipped, then padded with spaces to exactly `width` columns. */
export const fitWidth = (text: string, width: number): string => {
  const clipped = clipWidth(text, width);
  return clipped + ' '.repeat(Math.max(0, width - textWidth(clipped)));
};

/**
 * Untrusted text (a goal, a thought, a tool's arguments) as one plain line: made inert by
 * terminalSafe, stripped even of the colour codes it lets through (the dashboard paints its own),
 * whitespace runs folded to one space.
 */
export const plainLine = (text: string): string =>
  terminalSafe(text)
    .replace(/\x1b\[[0-9;]*m/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** Plain text wrapped at word boundaries to lines of at most `width` columns (long words are cut). */
export function wrapWidth(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (textWidth(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = textWidth(word) <= width ? word : clipWidth(word, width);
  }
  if (line) lines.push(line);
  return lines;
}
