/** How deep an A2A request's JSON may nest: a data part deeper than this is refused, not parsed on. */
export const MAX_A2A_JSON_DEPTH = 100;

/**
 * Whether parsed JSON nests deeper than `max` objects and arrays. Walks with its own stack, so a
 * body nested 100,000 deep is measured, never recursed into (the SDK's converters recurse, and
 * overflowed the stack into an internal error before this check).
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return false;
}
