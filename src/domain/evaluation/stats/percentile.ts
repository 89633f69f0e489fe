/**
 * The nearest-rank percentile (the smallest value with at least p of the values at or below it):
 * always one of the observed values, never an interpolation. Undefined for no values.
 */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1];
}
