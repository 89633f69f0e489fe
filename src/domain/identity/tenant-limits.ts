import { z } from 'zod';

/** Limits of one tenant; a missing field means no limit of that kind. */
export const TenantLimits = z.object({
  /** Agent runs of this tenant that may be active at once. */
  maxConcurrentRuns: z.number().int().positive().optional(),
  /** Model tokens (input + output) this tenant may use in any sliding hour of workflow time. */
  tokensPerHour: z.number().int().positive().optional(),
  /** Model and tool calls this tenant may start in any sliding minute of workflow time. */
  callsPerMinute: z.number().int().positive().optional(),
  /** Model tokens (input + output) this tenant may use in any sliding minute. */
  tokensPerMinute: z.number().int().positive().optional(),
  /** Model spend in USD this tenant may reach in any sliding hour; a run at the cap stops (`cost_budget`). */
  costPerHourUsd: z.number().positive().optional(),
  /** At a per-minute limit, a run waits (a visible step) until the window frees, or stops (`token_budget`). Default `wait`. */
  onRateLimit: z.enum(['wait', 'stop']).optional(),
});
export type TenantLimits = z.infer<typeof TenantLimits>;

/** The deployment's limits: a default for every tenant, and per-tenant overrides. */
export const TenantLimitsConfig = z.object({
  default: TenantLimits.optional(),
  tenants: z.record(z.string(), TenantLimits).default({}),
});
export type TenantLimitsConfig = z.infer<typeof TenantLimitsConfig>;
export type TenantLimitsConfigInit = z.input<typeof TenantLimitsConfig>;

/**
 * The limits that apply to `tenant`: the default, with the tenant's own fields on top (field by
 * field). `undefined` when nothing limits the tenant, so callers can skip the quota entirely.
 */
export function limitsFor(config: TenantLimitsConfig, tenant: string): TenantLimits | undefined {
  const own = Object.hasOwn(config.tenants, tenant) ? config.tenants[tenant] : undefined;
  const merged = { ...config.default, ...own };
  const limits: TenantLimits = {
    ...(merged.maxConcurrentRuns !== undefined ? { maxConcurrentRuns: merged.maxConcurrentRuns } : {}),
    ...(merged.tokensPerHour !== undefined ? { tokensPerHour: merged.tokensPerHour } : {}),
    ...(merged.callsPerMinute !== undefined ? { callsPerMinute: merged.callsPerMinute } : {}),
    ...(merged.tokensPerMinute !== undefined ? { tokensPerMinute: merged.tokensPerMinute } : {}),
    ...(merged.costPerHourUsd !== undefined ? { costPerHourUsd: merged.costPerHourUsd } : {}),
  };
  if (Object.keys(limits).length > 0 && merged.onRateLimit !== undefined) limits.onRateLimit = merged.onRateLimit;
  return Object.keys(limits).length > 0 ? limits : undefined;
}
