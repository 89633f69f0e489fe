import { z } from 'zod';
import { TokenUsage } from '../model/usage';

/** What a run's sub-agents spent in all, rolled up from every child result. */
export const DelegatedSpend = z.object({
  /** Child runs started, refused ones not counted. */
  runs: z.number().int().nonnegative(),
  usage: TokenUsage,
  costUsd: z.number().nonnegative(),
  /** Iterations of the child loops (they do not count against the parent's `maxIterations`). */
  iterations: z.number().int().nonnegative(),
});
export type DelegatedSpend = z.infer<typeof DelegatedSpend>;
