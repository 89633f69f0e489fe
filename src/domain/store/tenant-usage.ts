import { z } from 'zod';

const Count = z.number().int().nonnegative();

/** What a set of runs used: runs, calls, tokens and spend. */
export const UsageTotals = z.object({
  runs: Count,
  modelCalls: Count,
  toolCalls: Count,
  inputTokens: Count,
  outputTokens: Count,
  costUsd: z.number().nonnegative(),
});
export type UsageTotals = z.infer<typeof UsageTotals>;

/**
 * One tenant's usage between `from` and `to` (runs counted by when they started), for an
 * administrator to see and bill: totals, by agent and by model. Totals equal the sum of the
 * runs' own ledgers (each `AgentResult`'s usage and cost).
 */
export const TenantUsage = z.object({
  tenant: z.string(),
  from: z.string(),
  to: z.string(),
  totals: UsageTotals,
  byAgent: z.array(UsageTotals.extend({ agentName: z.string() })),
  byModel: z.array(UsageTotals.omit({ runs: true, toolCalls: true }).extend({ model: z.string(), runs: Count })),
});
export type TenantUsage = z.infer<typeof TenantUsage>;
