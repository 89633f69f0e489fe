/** Results nested deeper than this are refused: every walk over them (here, in redaction, in views) recurses. */
export const MAX_RESULT_DEPTH = 128;

/**
 * Turns any tool result into plain JSON data: undefined → null, bigint → string, Date → ISO,
 * Map/Set → arrays/objects, errors → {name, message}, functions dropped, cycles marked. Throws a
 * RangeError for a value nested deeper than `maxDepth`, before the stack can overflow.
 */
export function toJsonSafe(value: unknown, maxDepth: number = MAX_RESULT_DEPTH): unknown {
  const seen = new WeakSet<object>();
  const convert = (node: unknown, depth: number): unknown => {
    if (node === undefined) return null;
    if (node === null || typeof node === 'string' || typeof node === 'boolean') return node;
    if (typeof node === 'number') return Number.isFinite(node) ? node : String(node);
    if (typeof node === 'bigint') return node.toString();
    if (typeof node === 'function' || typeof node === 'symbol') return null;
    if (node instanceof Date) return Number.isNaN(node.getTime()) ? null : node.toISOString();
    if (node instanceof Error) return { name: String(node.name), message: String(node.message) };
    if (ArrayBuffer.isView(node)) return `[binary ${node.byteLength} bytes]`;
    if (seen.has(node)) return '[Circular]';
    if (depth >= maxDepth) throw new RangeError(`the value is nested deeper than ${maxDepth} levels`);
    seen.add(node);
    try {
      if (node instanceof Map) return Object.fromEntries([...node].map(([k, v]) => [String(k), convert(v, depth + 1)]));
      if (node instanceof Set || Array.isArray(node)) return [...node].map((v) => convert(v, depth + 1));
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        // Defined, not assigned: a key named `__proto__` stays an own property.
        if (typeof v !== 'function' && typeof v !== 'symbol' && v !== undefined) {
          Object.defineProperty(out, k, {
            value: convert(v, depth + 1),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
      }
      return out;
    } finally {
      seen.delete(node);
    }
  };
  return convert(value, 0);
}

export interface CutResult {
  result: unknown;
  truncated: boolean;
}

/** Keeps results under `maxChars` of JSON text; a cut result becomes a string with a visible marker. */
export function cutToSize(value: unknown, maxChars: number): CutResult {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= maxChars) return { result: value, truncated: false };
  return { result: truncatedText(text.slice(0, maxChars), text.length), truncated: true };
}

/** `shown` with the visible marker saying how much of `total` characters it is. */
export function truncatedText(shown: string, total: number): string {
  return `${shown}\n…[truncated: showing ${shown.length} of ${total} characters]`;
}
