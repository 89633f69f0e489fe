/** Counts of one proportion: `successes` of `n`. */
export interface Counts {
  successes: number;
  n: number;
}

export interface DropTest {
  /** The chance of a drop at least this large if nothing changed (one-sided). */
  pValue: number;
  test: 'fisher' | 'z';
}

/** Below this many units on either side, or an expected cell under 5, the exact test is used. */
export const EXACT_BELOW_N = 30;

/**
 * One-sided test that the current proportion is lower than the baseline's. Fisher's exact test
 * when a side is small or an expected cell is under 5 (the normal approximation is poor there),
 * else the pooled two-proportion z-test. Pure.
 */
export function proportionDropTest(baseline: Counts, current: Counts): DropTest {
  const n = baseline.n + current.n;
  const successes = baseline.successes + current.successes;
  const smallestExpected = Math.min(
    (baseline.n * successes) / n,
    (baseline.n * (n - successes)) / n,
    (current.n * successes) / n,
    (current.n * (n - successes)) / n,
  );
  if (Math.min(baseline.n, current.n) < EXACT_BELOW_N || smallestExpected < 5)
    return { pValue: fisherLowerTail(baseline, current), test: 'fisher' };
  return { pValue: zTestLowerTail(baseline, current), test: 'z' };
}

/**
 * P(current successes ≤ observed) given both margins: the hypergeometric lower tail. With s
 * successes among N units, P(X = k) = C(n₂, k) · C(n₁, s − k) / C(N, s).
 */
export function fisherLowerTail(baseline: Counts, current: Counts): number {
  const n = baseline.n + current.n;
  const s = baseline.successes + current.successes;
  const logTotal = logChoose(n, s);
  let p = 0;
  for (let k = Math.max(0, s - baseline.n); k <= current.successes; k++)
    p += Math.exp(logChoose(current.n, k) + logChoose(baseline.n, s - k) - logTotal);
  return Math.min(1, p);
}

/** The pooled two-proportion z statistic's upper tail for baseline − current. */
export function zTestLowerTail(baseline: Counts, current: Counts): number {
  const p1 = baseline.successes / baseline.n;
  const p2 = current.successes / current.n;
  const pooled = (baseline.successes + current.successes) / (baseline.n + current.n);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / baseline.n + 1 / current.n));
  if (se === 0) return p2 < p1 ? 0 : 1;
  return 1 - normalCdf((p1 - p2) / se);
}

function logChoose(n: number, k: number): number {
  if (k < 0 || k > n) return Number.NEGATIVE_INFINITY;
  const m = Math.min(k, n - k);
  let log = 0;
  for (let i = 1; i <= m; i++) log += Math.log((n - m + i) / i);
  return log;
}

/** Φ(x) by Abramowitz and Stegun 7.1.26 (absolute error under 1.5e-7). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(x) / Math.SQRT2));
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}
