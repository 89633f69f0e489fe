/** Comparing JSON values for the scorers. Pure. */

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Deep equality of JSON values (object key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/**
 * Where `actual` fails to contain `expected`, as a path (`$.order.items`), or undefined when it
 * does: objects by subset (every expected key present and containing its value, recursively),
 * arrays and scalars by equality.
 */
export function subsetMismatch(expected: unknown, actual: unknown, path = '$'): string | undefined {
  if (isObject(expected)) {
    if (!isObject(actual)) return path;
    for (const [key, value] of Object.entries(expected)) {
      const at = `${path}.${key}`;
      if (!Object.prototype.hasOwnProperty.call(actual, key)) return at;
      const inner = subsetMismatch(value, actual[key], at);
      if (inner !== undefined) return inner;
    }
    return undefined;
  }
  return jsonEqual(expected, actual) ? undefined : path;
}

/** The value at a `$.a.b` path of `subsetMismatch`, or undefined. */
export function valueAt(root: unknown, path: string): unknown {
  let value = root;
  for (const key of path.split('.').slice(1)) value = isObject(value) ? value[key] : undefined;
  return value;
}
