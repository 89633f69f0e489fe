import { shown } from './rule-values';

/*
 * The `pathPrefix` approval rule, failing closed: a path needs no approval only when it is
 * positively recognised as a plain absolute POSIX path that lies outside every protected prefix.
 * Pure (no `path` module), so it runs in the workflow sandbox; never throws.
 *
 * POSIX separates segments with `/` only: `\` and `%2f` are ordinary name characters there, and
 * `..` resolved by text is wrong past a symbolic link. So the rule does not decode or resolve
 * anything: a value that would need it is not recognised, and needs approval.
 */

/** Control and format characters (`\p{C}`: NUL, newlines, zero-width and bidi marks, unassigned). */
const INVISIBLE = /\p{C}/u;

/**
 * Why `text` is not a plain absolute POSIX path, or its segments when it is: starts with one `/`,
 * no `\`, `%`, `~`, control or format characters, no empty, `.` or `..` segment (one trailing `/`
 * is allowed). URL forms (`file:`, `http:`) and relative paths fail the first test.
 */
function plainSegments(text: string): string[] | { problem: string } {
  if (!text.startsWith('/')) return { problem: 'is not an absolute path' };
  if (text.startsWith('//')) return { problem: 'starts with //, which POSIX leaves to the system' };
  if (text.includes('\\')) return { problem: 'contains \\, which POSIX reads as a name character, not a separator' };
  if (text.includes('%')) return { problem: 'contains %, so it may be percent-encoded' };
  if (text.includes('~')) return { problem: 'contains ~, which a shell may expand' };
  if (INVISIBLE.test(text)) return { problem: 'contains a control or invisible character' };
  const segments = (text.length > 1 && text.endsWith('/') ? text.slice(1, -1) : text.slice(1)).split('/');
  if (text === '/') return [];
  if (segments.some((s) => s === '' || s === '.' || s === '..'))
    return { problem: 'is not normalised (empty, . or .. segment)' };
  return segments;
}

/** Compared whole segment by segment, NFC and case-folded: macOS and Windows file systems ignore case. */
const folded = (segment: string): string => segment.normalize('NFC').toLowerCase();

function isUnder(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => folded(segment) === folded(path[i] ?? ''));
}

/**
 * Missing or non-string fields never match. A string needs approval unless it is a plain absolute
 * path outside every prefix; a prefix that is not itself a plain absolute path protects
 * everything, since no path can be shown to lie outside it.
 */
export function pathReason(field: string, value: unknown, prefixes: readonly string[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const path = plainSegments(value);
  if (!Array.isArray(path))
    return `${field} ${shown(value)} ${path.problem}, so it cannot be shown to be outside ${prefixes.map(shown).join(' or ')}`;
  for (const prefix of prefixes) {
    const base = plainSegments(prefix);
    if (!Array.isArray(base))
      return `approval rule prefix ${shown(prefix)} ${base.problem}, so no path can be shown to be outside it`;
    if (isUnder(path, base)) return `${field} ${shown(value)} is under ${shown(prefix)}`;
  }
  return undefined;
}
