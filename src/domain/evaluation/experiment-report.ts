import { z } from 'zod';
import { Estimate, meanInterval, percentile, wilsonInterval } from './stats';

/*
 * What a live experiment did, per variant (docs/evaluation.md, "Live experiments"): built from
 * each run's ending as visibility lists it and the scores that arrived later, with the
 * evaluation statistics (Wilson intervals for rates, Student t for means, nearest-rank
 * percentiles). Pure: the client reads, this counts.
 */

/** One run of the experiment as the report reads it. */
export interface ExperimentRunReading {
  workflowId: string;
  variant: string;
  /** False while the run is open: it counts as a run, not in success, cost, tokens or latency. */
  ended: boolean;
  /** Ended with termination `success`. */
  success: boolean;
  costUsd?: number;
  tokens?: number;
  /** Start to close, wall clock (waits for people included). */
  latencyMs?: number;
  /** Its scores, whoever gave them: several of one name on one run are averaged into one observation. */
  scores: ReadonlyArray<{ name: string; value: number }>;
}

export const ExperimentScoreSummary = z.object({
  name: z.string(),
  /** Runs with at least one score of this name. */
  runs: z.number().int().nonnegative(),
  /** The mean per run (Student t over runs). */
  mean: Estimate,
  /** When every observation is 0 or 1 (true/false scores): the share of runs scored 1, with Wilson's interval. */
  passRate: Estimate.optional(),
});
export type ExperimentScoreSummary = z.infer<typeof ExperimentScoreSummary>;

export const ExperimentVariantSummary = z.object({
  variant: z.string(),
  runs: z.number().int().nonnegative(),
  ended: z.number().int().nonnegative(),
  successRate: Estimate.optional(),
  costUsd: Estimate.optional(),
  tokens: Estimate.optional(),
  latencyMs: z.object({ p50: z.number(), p95: z.number() }).optional(),
  scores: z.array(ExperimentScoreSummary),
});
export type ExperimentVariantSummary = z.infer<typeof ExperimentVariantSummary>;

export const ExperimentReport = z.object({
  experiment: z.string(),
  /** Runs read, and whether the limit cut the listing short (newest runs are read first). */
  runs: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  truncated: z.boolean(),
  /** By variant name. */
  variants: z.array(ExperimentVariantSummary),
});
export type ExperimentReport = z.infer<typeof ExperimentReport>;

const meanEstimate = (values: number[], clamp?: { lowest: number; highest: number }): Estimate | undefined => {
  const m = meanInterval(values, clamp);
  return m
    ? { value: m.value, ...(m.interval ? { interval: m.interval } : {}), n: values.length, over: 'units' }
    : undefined;
};

const rateEstimate = (hits: number, n: number): Estimate | undefined => {
  const interval = wilsonInterval(hits, n);
  return interval ? { value: hits / n, interval, n, over: 'wilson' } : undefined;
};

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Each score name's observations: one per run (the mean of that run's scores of the name). */
function scoreSummaries(runs: readonly ExperimentRunReading[]): ExperimentScoreSummary[] {
  const perName = new Map<string, number[]>();
  for (const run of runs) {
    const byName = new Map<string, number[]>();
    for (const s of run.scores) pushTo(byName, s.name, s.value);
    for (const [name, values] of byName) pushTo(perName, name, values.reduce((a, b) => a + b, 0) / values.length);
  }
  return [...perName.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, values]) => {
      const boolean = values.every((v) => v === 0 || v === 1);
      const passed = values.filter((v) => v === 1).length;
      const passRate = boolean ? rateEstimate(passed, values.length) : undefined;
      return { name, runs: values.length, mean: meanEstimate(values)!, ...(passRate ? { passRate } : {}) };
    });
}

function variantSummary(variant: string, runs: readonly ExperimentRunReading[]): ExperimentVariantSummary {
  const ended = runs.filter((r) => r.ended);
  const costs = ended.flatMap((r) => (r.costUsd !== undefined ? [r.costUsd] : []));
  const tokens = ended.flatMap((r) => (r.tokens !== undefined ? [r.tokens] : []));
  const latencies = ended.flatMap((r) => (r.latencyMs !== undefined ? [r.latencyMs] : []));
  const successRate = rateEstimate(ended.filter((r) => r.success).length, ended.length);
  const costUsd = meanEstimate(costs, { lowest: 0, highest: Number.MAX_VALUE });
  const tokenMean = meanEstimate(tokens, { lowest: 0, highest: Number.MAX_VALUE });
  return {
    variant,
    runs: runs.length,
    ended: ended.length,
    ...(successRate ? { successRate } : {}),
    ...(costUsd ? { costUsd } : {}),
    ...(tokenMean ? { tokens: tokenMean } : {}),
    ...(latencies.length > 0
      ? { latencyMs: { p50: percentile(latencies, 0.5)!, p95: percentile(latencies, 0.95)! } }
      : {}),
    scores: scoreSummaries(runs),
  };
}

/** The report of `experiment` over `runs` (read up to `limit`; `truncated` when there were more). */
export function summariseExperiment(
  experiment: string,
  runs: readonly ExperimentRunReading[],
  listing: { limit: number; truncated: boolean },
): ExperimentReport {
  const byVariant = new Map<string, ExperimentRunReading[]>();
  for (const run of runs) pushTo(byVariant, run.variant, run);
  const variants = [...byVariant.keys()].sort().map((v) => variantSummary(v, byVariant.get(v)!));
  return { experiment, runs: runs.length, ...listing, variants };
}
