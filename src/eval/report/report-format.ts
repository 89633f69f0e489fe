import type { Estimate } from '../../domain/evaluation/stats/evaluation-summary';

/** `83.3%`. */
export const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;

/** `83.3% [61.1–94.0]` (percent), or with `plain`, `0.43 [0.30–0.56]`. */
export function estimateText(e: Estimate | undefined, plain = false): string {
  if (!e) return '—';
  const f = plain ? (v: number) => v.toFixed(2) : (v: number) => (v * 100).toFixed(1);
  const value = plain ? e.value.toFixed(2) : percent(e.value);
  return e.interval ? `${value} [${f(e.interval.low)}–${f(e.interval.high)}]` : value;
}

/** `$0.0123` (four decimals: per-case costs are small). */
export const usd = (value: number): string => `$${value.toFixed(4)}`;

/** `850 ms`, `12.4 s`. */
export const duration = (ms: number): string => (ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`);

export const count = (n: number): string => Math.round(n).toLocaleString('en-US');
