/**
 * The unbiased pass@k estimator (Chen et al., 2021) for one case: with `n` attempts of which `c`
 * passed, the chance that at least one of k attempts drawn without replacement passes,
 * 1 − C(n−c, k) / C(n, k), computed as a product so no factorial overflows.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (k < 1 || k > n) throw new RangeError(`pass@${k} needs 1 ≤ k ≤ n (n = ${n})`);
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = 0; i < k; i++) allFail *= (n - c - i) / (n - i);
  return 1 - allFail;
}
