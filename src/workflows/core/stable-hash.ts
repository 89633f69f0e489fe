import { canonicalJson } from '../../domain/approval/arguments-hash';

/** FNV-1a, 32-bit, as hex: a short deterministic fingerprint (sandbox-safe, no crypto module). */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** Identifies a tool call by tool name and arguments; the hash keeps stored keys short. */
export function callKey(toolName: string, args: unknown): string {
  const text = canonicalJson(args);
  return `${toolName}#${fnv1a(text)}${fnv1a(`${text}|${toolName}`)}`;
}

/**
 * Like callKey, with the arguments normalised first: strings trimmed, lower-cased and their
 * whitespace collapsed, so `{"city": " Paris"}` and `{"city": "paris"}` are one call to the
 * stall detector (never to the read-only cache, whose tools may care about case).
 */
export function similarCallKey(toolName: string, args: unknown): string {
  return callKey(toolName, normalised(args));
}

function normalised(value: unknown): unknown {
  if (typeof value === 'string') return value.trim().replace(/\s+/g, ' ').toLowerCase();
  if (Array.isArray(value)) return value.map(normalised);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, normalised(v)]));
  return value;
}
