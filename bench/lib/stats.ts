/** Order statistics for benchmark samples. Pure. */

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  min: number;
  max: number;
  mean: number;
}

/**
 * The q-quantile (0..1) by linear interpolation between closest ranks (numpy's default), so a
 * p95 of 20 samples lies between the 19th and 20th rather than jumping to the maximum.
 */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lower = Math.floor(pos);
  const below = sorted[lower] ?? Number.NaN;
  const above = sorted[Math.min(lower + 1, sorted.length - 1)] ?? below;
  return below + (above - below) * (pos - lower);
}

export const median = (samples: readonly number[]): number => quantile(samples, 0.5);
export const p95 = (samples: readonly number[]): number => quantile(samples, 0.95);

export function summarise(samples: readonly number[]): Summary {
  const n = samples.length;
  return {
    n,
    p50: median(samples),
    p95: p95(samples),
    min: n ? Math.min(...samples) : Number.NaN,
    max: n ? Math.max(...samples) : Number.NaN,
    mean: n ? samples.reduce((s, x) => s + x, 0) / n : Number.NaN,
  };
}

/** a / b, or undefined when either side is missing or b is not positive. */
export function ratio(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b <= 0) return undefined;
  return a / b;
}
