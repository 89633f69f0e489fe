import { sha256Hex } from '../text/sha256-hex';

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * SHA-256 of a call's canonical arguments: what an approver names to prove they saw exactly
 * what will run. The same value in the workflow sandbox, a worker and a client (sha256-hex.ts).
 */
export function argumentsHash(args: Record<string, unknown>): string {
  return `sha256:${sha256Hex(canonicalJson(args))}`;
}
