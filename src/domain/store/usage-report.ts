import { z } from 'zod';

/** Longest range a usage report covers. */
export const MAX_USAGE_DAYS = 366;

/** What one agent's runs used on one UTC day (by the day each run started). */
export const UsageRow = z.object({
  day: z.string(),
  agentName: z.string(),
  runs: z.number().int().nonnegative(),
  steps: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
});
export type UsageRow = z.infer<typeof UsageRow>;

export const UsageReport = z.object({
  from: z.string(),
  to: z.string(),
  rows: z.array(UsageRow),
  totals: UsageRow.omit({ day: true, agentName: true }),
});
export type UsageReport = z.infer<typeof UsageReport>;
