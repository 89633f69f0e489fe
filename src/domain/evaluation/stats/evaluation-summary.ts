import { z } from 'zod';

const Interval = z.object({ low: z.number(), high: z.number() });

/**
 * A measured figure: its value, its 95% interval when there is one, how many observations it
 * rests on, and what the interval spans: `repeats` (Student t over each repeat's mean, repeat ≥ 2),
 * `units` (Student t over every unit, one repeat) or `wilson` (a proportion's score interval).
 */
export const Estimate = z.object({
  value: z.number(),
  interval: Interval.optional(),
  n: z.number().int().nonnegative(),
  over: z.enum(['repeats', 'units', 'wilson']),
});
export type Estimate = z.infer<typeof Estimate>;

export const CriterionId = z.enum(['coherence', 'termination_accuracy', 'recovery', 'iteration_share', 'completion']);
export type CriterionId = z.infer<typeof CriterionId>;

/** One of seed 001's success criteria for one variant: its target and whether the value meets it. */
export const CriterionSummary = z.object({
  id: CriterionId,
  label: z.string(),
  target: z.object({ op: z.enum(['>=', '>', '<']), value: z.number() }),
  /** The scorer (or result field) the value comes from, e.g. `judge` for coherence when a judge ran. */
  source: z.string(),
  estimate: Estimate.optional(),
  /** Judged on the point estimate; the interval says how sure that is. */
  status: z.enum(['met', 'not_met', 'not_measured']),
});
export type CriterionSummary = z.infer<typeof CriterionSummary>;

export const TimeTargetId = z.enum(['planning', 'reasoning', 'simple_task']);
export type TimeTargetId = z.infer<typeof TimeTargetId>;

/**
 * One of seed 003's time targets for one variant: the p50 and p95 of what the units measured,
 * against a ceiling in milliseconds. Met when the p95 is under it (most runs, not the median
 * run); `not_measured` when no unit the variant's own model answered bears on it.
 */
export const TimeTargetSummary = z.object({
  id: TimeTargetId,
  label: z.string(),
  /** The value must stay under this many milliseconds. */
  underMs: z.number().positive(),
  /** What one observation is, e.g. "planning time per planner call of a run". */
  source: z.string(),
  /** Observations: units (not replayed) that bear on it. */
  n: z.number().int().nonnegative(),
  p50: z.number().nonnegative().optional(),
  p95: z.number().nonnegative().optional(),
  status: z.enum(['met', 'not_met', 'not_measured']),
});
export type TimeTargetSummary = z.infer<typeof TimeTargetSummary>;

export const ScorerSummary = z.object({
  scorer: z.string(),
  mean: Estimate,
  passed: z.number().int().nonnegative(),
  passRate: Estimate,
});
export type ScorerSummary = z.infer<typeof ScorerSummary>;

export const VariantSummary = z.object({
  variant: z.string(),
  /** Cases × repeats planned for this variant, and how they ended. */
  units: z.object({
    total: z.number().int().nonnegative(),
    scored: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
    passed: z.number().int().nonnegative(),
  }),
  /** Units that passed every score, of the units that ran (skipped ones never ran). */
  passRate: Estimate.optional(),
  /** pass@k for k = 1 … repeat, averaged over the cases with at least k runs. */
  passAtK: z.array(z.object({ k: z.number().int().positive(), value: z.number(), cases: z.number().int() })),
  scorers: z.array(ScorerSummary),
  criteria: z.array(CriterionSummary),
  /** Seed 003's planning, reasoning and simple-task times against their targets; never gated (they measure the machine too). */
  timeTargets: z.array(TimeTargetSummary),
  latencyMs: z.object({ p50: z.number(), p90: z.number(), p95: z.number() }).optional(),
  /** The pass rate of the units that ran, per case tag (dataset order of first use); empty without tags. */
  byTag: z.array(z.object({ tag: z.string(), passRate: Estimate })),
  /** Means over the units that ran, and the totals. */
  costUsd: z.object({ perCase: z.number(), total: z.number() }),
  tokens: z.object({ perCase: z.number(), total: z.number() }),
});
export type VariantSummary = z.infer<typeof VariantSummary>;

/** What a report and `eval --json` show of an EvaluationResult: per variant, figures with intervals. */
export const EvaluationSummary = z.object({
  schemaVersion: z.literal(1),
  name: z.string(),
  dataset: z.object({ name: z.string(), sha256: z.string() }),
  status: z.enum(['completed', 'cancelled', 'budget_spent']),
  repeat: z.number().int().positive(),
  cases: z.number().int().nonnegative(),
  spent: z.object({ costUsd: z.number(), tokens: z.number() }),
  variants: z.array(VariantSummary),
});
export type EvaluationSummary = z.infer<typeof EvaluationSummary>;
