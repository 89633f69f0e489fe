/** The two-sided 95% normal quantile. */
export const Z_95 = 1.959963984540054;

/** A point estimate with its 95% interval; `low`/`high` equal `value` when nothing varies. */
export interface Interval {
  low: number;
  high: number;
}

/**
 * Wilson's score interval for `successes` of `n` at 95%. Unlike the textbook p ± z·se it stays
 * inside [0, 1] and is not zero-width at 0/n or n/n, which matters for small evaluations.
 * Undefined for n = 0 (nothing was measured).
 */
export function wilsonInterval(successes: number, n: number): Interval | undefined {
  if (n <= 0) return undefined;
  const p = successes / n;
  const z2 = Z_95 * Z_95;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (Z_95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
