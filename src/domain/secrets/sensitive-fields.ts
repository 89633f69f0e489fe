/** What a sensitive field shows in views other than the auditor's. */
export const SENSITIVE = '[SENSITIVE]';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const hasOwn = (value: object, key: string): boolean => Object.prototype.hasOwnProperty.call(value, key);

/** A deep copy of a plain JSON value; sharing nothing with the input. */
function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyJson(v)]));
  return value;
}

/** Replaces the field at `path` inside `node` (already a copy, so it may be changed in place). */
function replaceAt(node: unknown, path: readonly string[], marker: string): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (Array.isArray(node)) {
    // A numeric segment picks one element; any other segment applies to every element.
    if (/^\d+$/.test(head)) {
      const index = Number(head);
      if (index >= node.length) return;
      if (rest.length === 0) node[index] = marker;
      else replaceAt(node[index], rest, marker);
      return;
    }
    for (const element of node) replaceAt(element, path, marker);
    return;
  }
  if (!isRecord(node) || !hasOwn(node, head)) return;
  if (rest.length === 0) node[head] = marker;
  else replaceAt(node[head], rest, marker);
}

/**
 * A deep copy of `value` with the field at each dotted path (`password`, `card.number`) replaced
 * by `marker`. A path through an array applies to every element (`items.ssn`), or to one element
 * when the segment is an index (`items.0.ssn`). Absent paths are ignored and nothing is added.
 * Non-objects come back as they are: a string holding JSON is not parsed, so a tool that returns
 * its result as JSON text gets no field redaction (only secret patterns apply to it). Pure.
 */
export function redactFields<T>(value: T, paths: readonly string[], marker: string = SENSITIVE): T {
  if (value === null || typeof value !== 'object') return value;
  const copy = copyJson(value);
  for (const path of paths) {
    const segments = path.split('.');
    if (segments.some((s) => s === '')) continue;
    replaceAt(copy, segments, marker);
  }
  return copy as T;
}
