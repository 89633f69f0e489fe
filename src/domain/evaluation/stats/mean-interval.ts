import type { Interval } from './proportion-interval';

/** Student's t 0.975 quantiles by degrees of freedom; between rows the smaller df (the wider interval) is used. */
const T_975: ReadonlyArray<readonly [number, number]> = [
  [1, 12.706],
  [2, 4.303],
  [3, 3.182],
  [4, 2.776],
  [5, 2.571],
  [6, 2.447],
  [7, 2.365],
  [8, 2.306],
  [9, 2.262],
  [10, 2.228],
  [12, 2.179],
  [15, 2.131],
  [20, 2.086],
  [25, 2.06],
  [30, 2.042],
  [40, 2.021],
  [60, 2.0],
  [120, 1.98],
  [1000, 1.962],
];

/** The t quantile for a two-sided 95% interval with `df` degrees of freedom (df ≥ 1). */
export function tQuantile95(df: number): number {
  let q = T_975[0]![1];
  for (const [rowDf, value] of T_975) if (rowDf <= df) q = value;
  return q;
}

export function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/**
 * The mean of `values` with a Student t 95% interval (sample standard deviation, n − 1 degrees
 * of freedom), clamped to [lowest, highest] when given (scores live in [0, 1]). No interval for
 * fewer than two values: one observation says nothing about its spread.
 */
export function meanInterval(
  values: readonly number[],
  clamp?: { lowest: number; highest: number },
): { value: number; interval?: Interval } | undefined {
  if (values.length === 0) return undefined;
  const value = mean(values);
  if (values.length < 2) return { value };
  const variance = values.reduce((sum, v) => sum + (v - value) ** 2, 0) / (values.length - 1);
  const half = tQuantile95(values.length - 1) * Math.sqrt(variance / values.length);
  const low = value - half;
  const high = value + half;
  return {
    value,
    interval: clamp ? { low: Math.max(clamp.lowest, low), high: Math.min(clamp.highest, high) } : { low, high },
  };
}
