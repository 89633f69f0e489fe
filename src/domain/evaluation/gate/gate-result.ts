import { z } from 'zod';

const Side = z.object({ successes: z.number().int(), n: z.number().int(), rate: z.number() });

/** One reason the gate fails, in plain words (`why`) and in numbers. */
export const Regression = z.discriminatedUnion('kind', [
  /** The variant's pass rate, or one of seed 001's criteria, dropped significantly. */
  z.object({
    kind: z.literal('significant_drop'),
    variant: z.string(),
    /** `pass_rate` or a criterion id. */
    measure: z.string(),
    baseline: Side,
    current: Side,
    pValue: z.number(),
    test: z.enum(['fisher', 'z']),
    why: z.string(),
  }),
  /** A case that passed every repeat in the baseline fails every repeat now. */
  z.object({
    kind: z.literal('stable_flip'),
    variant: z.string(),
    caseId: z.string(),
    workflowIds: z.array(z.string()),
    why: z.string(),
  }),
]);
export type Regression = z.infer<typeof Regression>;

export const GateResult = z.object({
  passed: z.boolean(),
  alpha: z.number(),
  regressions: z.array(Regression),
  /** What was not compared and why, and drops that were not significant. */
  notes: z.array(z.string()),
});
export type GateResult = z.infer<typeof GateResult>;
