import { canonicalJson } from './arguments-hash';

/** JSON text of a value for an approval reason, cut to 120 characters; control characters stay escaped. */
export function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** Canonical JSON (key order ignored), or undefined for values JSON cannot hold (cycles, bigint). */
export function jsonText(value: unknown): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}

/**
 * A number, or a string holding one: optional sign and currency symbol, `1500`, `1500.5`, `1e3`,
 * or comma thousands in groups of three (`1,500.00`). Any other non-empty string is `unreadable`;
 * empty strings and non-numbers (booleans, objects, null) are no amount at all.
 */
function amountOf(value: unknown): number | 'unreadable' | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().replace(/^([+-]?)[$€£¥]\s*/, '$1');
  if (text === '') return undefined;
  if (/^[+-]?(infinity|nan)$/i.test(text)) return Number.NaN;
  const plain = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text) ? text.replace(/,/g, '') : text;
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(plain) ? Number(plain) : 'unreadable';
}

/** Missing fields and non-amounts never match; unreadable and non-finite amounts always do. */
export function aboveReason(field: string, value: unknown, threshold: number): string | undefined {
  const amount = amountOf(value);
  if (amount === undefined) return undefined;
  const text = typeof value === 'number' ? String(value) : shown(value);
  if (amount === 'unreadable') return `${field} ${text} is not a number, so it may be above ${threshold}`;
  if (!Number.isFinite(amount)) return `${field} ${text} is not a finite number`;
  return amount > threshold ? `${field} ${text} is above ${threshold}` : undefined;
}

/**
 * Values at a dotted path: own properties only; an array on the way fans out over its elements
 * unless the segment is an index (`items.0.path`). Each value found that is an array also yields
 * its elements, at any depth, so a rule holds when any element meets it. A missing field yields none.
 */
export function candidates(value: unknown, path: readonly string[]): unknown[] {
  const [head, ...rest] = path;
  if (head === undefined) return Array.isArray(value) ? [value, ...value.flatMap((v) => candidates(v, []))] : [value];
  if (Array.isArray(value)) {
    if (!/^\d+$/.test(head)) return value.flatMap((element) => candidates(element, path));
    return Number(head) < value.length ? candidates(value[Number(head)], rest) : [];
  }
  if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, head)) return [];
  return candidates((value as Record<string, unknown>)[head], rest);
}

/** The first reason `test` gives for one of `values`, in order, or undefined: a rule holds when any value makes it hold. */
export function firstReason(
  values: readonly unknown[],
  test: (value: unknown) => string | undefined,
): string | undefined {
  for (const value of values) {
    const reason = test(value);
    if (reason !== undefined) return reason;
  }
  return undefined;
}
