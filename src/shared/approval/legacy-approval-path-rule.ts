import { shown } from './rule-values';

/*
 * LEGACY, for histories recorded before `approval-rules-fail-closed` only (see
 * legacy-approval-policy.ts). The `pathPrefix` approval rule: POSIX normalisation done purely (no `path` module), so it runs in
 * the workflow sandbox. Every doubt means approval is needed.
 */

/** A POSIX path after normalisation: `..` kept only as leading segments of a relative path. */
interface NormalPath {
  absolute: boolean;
  segments: string[];
}

/**
 * Decodes ASCII percent-escapes (`%2e%2e%2f`) until none are left, so double encoding does not
 * hide `..`. Undefined when still encoded after 8 rounds.
 */
function decodePercents(text: string): string | undefined {
  let current = text;
  for (let round = 0; round < 8; round++) {
    const next = current.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === current) return current;
    current = next;
  }
  return undefined;
}

/**
 * Pure POSIX normalisation: percent-decoded, `\` read as `/`, a `file://host` prefix dropped,
 * `//` and `.` collapsed, `..` resolved (`/..` is `/`). Relative paths stay relative.
 */
function normalisePath(raw: string): NormalPath | undefined {
  const decoded = decodePercents(raw);
  if (decoded === undefined) return undefined;
  let text = decoded.replace(/\\/g, '/');
  if (/^file:\/\//i.test(text)) text = text.slice(7).replace(/^[^/]*/, '');
  const absolute = text.startsWith('/');
  const segments: string[] = [];
  for (const part of text.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') segments.push(part);
    else if (segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
    else if (!absolute) segments.push('..');
  }
  return { absolute, segments };
}

/** Segment by segment and case-insensitively (macOS and Windows file systems ignore case). */
function isUnder(path: NormalPath, prefix: NormalPath): boolean {
  if (path.absolute !== prefix.absolute || prefix.segments.length > path.segments.length) return false;
  return prefix.segments.every((segment, i) => segment.toLowerCase() === path.segments[i]?.toLowerCase());
}

/**
 * Missing or non-string fields never match. A relative path whose `..` climbs above where it
 * starts could reach anything, so it matches every prefix; so does one still encoded after 8 rounds.
 */
export function legacyPathReason(field: string, value: unknown, prefixes: readonly string[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const path = normalisePath(value);
  if (path === undefined) return `${field} ${shown(value)} is percent-encoded too many times to check`;
  if (!path.absolute && path.segments[0] === '..') return `${field} ${shown(value)} climbs above its starting folder`;
  const resolved = `${path.absolute ? '/' : ''}${path.segments.join('/')}`;
  const via = resolved === value.replace(/(.)\/+$/, '$1') ? '' : ` (resolves to ${shown(resolved)})`;
  for (const prefix of prefixes) {
    const base = normalisePath(prefix);
    if (base !== undefined && isUnder(path, base)) return `${field} ${shown(value)}${via} is under ${shown(prefix)}`;
  }
  return undefined;
}
