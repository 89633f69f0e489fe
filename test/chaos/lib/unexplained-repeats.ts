/**
 * Consecutive asks for the same thing (a model turn, a tool call's idempotency key) with no
 * worker kill between them. A kill may leave an ask unanswered or its answer unrecorded, so the
 * next worker asks again; any other repeat means a completed call was made twice.
 */
export function unexplainedRepeats<T extends { at: number }>(
  asks: readonly T[],
  keyOf: (ask: T) => string,
  kills: readonly { at: number }[],
): Array<{ key: string; first: T; again: T }> {
  const last = new Map<string, T>();
  const found: Array<{ key: string; first: T; again: T }> = [];
  for (const ask of [...asks].sort((a, b) => a.at - b.at)) {
    const key = keyOf(ask);
    const before = last.get(key);
    if (before && !kills.some((k) => k.at > before.at && k.at < ask.at)) found.push({ key, first: before, again: ask });
    last.set(key, ask);
  }
  return found;
}
