/**
 * Turns any tool result into plain JSON data: undefined → null, bigint → string, Date → ISO,
 * Map/Set → arrays/objects, errors → {name, message}, functions dropped, cycles marked.
 */
export function toJsonSafe(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (ArrayBuffer.isView(value)) return `[binary ${value.byteLength} bytes]`;
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  try {
    if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), toJsonSafe(v, seen)]));
    if (value instanceof Set || Array.isArray(value)) return [...value].map((v) => toJsonSafe(v, seen));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== 'function' && typeof v !== 'symbol' && v !== undefined) out[k] = toJsonSafe(v, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

export interface CutResult {
  result: unknown;
  truncated: boolean;
}

/** Keeps results under `maxChars` of JSON text; a cut result becomes a string with a visible marker. */
export function cutToSize(value: unknown, maxChars: number): CutResult {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= maxChars) return { result: value, truncated: false };
  const marker = `\n…[truncated: showing ${maxChars} of ${text.length} characters]`;
  return { result: text.slice(0, maxChars) + marker, truncated: true };
}
