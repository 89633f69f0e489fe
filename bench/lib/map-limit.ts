/** fn(0) … fn(n - 1) with at most `limit` in flight; results in index order. Rejects on the first failure. */
export async function mapLimit<T>(n: number, limit: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(n);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < n; i = next++) results[i] = await fn(i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, lane));
  return results;
}
