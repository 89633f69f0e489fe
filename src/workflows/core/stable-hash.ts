import { canonicalJson } from '../../domain/approval/arguments-hash';
import { fnv1a } from '../../domain/text/fnv1a';

export { fnv1a };

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
