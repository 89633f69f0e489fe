/**
 * Runs `work` over the items with at most `limit` in flight, starting them in order; results in
 * item order. Every item settles before a failure is rethrown (the first, in item order), so each
 * call's outcome reaches the chain even when a sibling was cancelled. Deterministic in a workflow:
 * starts depend only on the order promises settle in, which history fixes.
 */
export async function settleWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const settled: Array<PromiseSettledResult<R>> = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      try {
        settled[index] = { status: 'fulfilled', value: await work(items[index]!, index) };
      } catch (reason) {
        settled[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<R>).value);
}
