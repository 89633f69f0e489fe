import { z } from 'zod';
import { TenantLimits } from '../../domain/identity/tenant-limits';

/*
 * What the tenant quota workflow's updates accept (their definitions are in
 * tenant-quota-messages.ts). Here, apart from the definitions, because this module is pure: the
 * workflow bundle preloads it once per V8 context instead of building the schemas for every run.
 */

const WorkflowId = z.string().min(1);

export const AcquireTenantRunRequest = z.object({ workflowId: WorkflowId, limits: TenantLimits });
export type AcquireTenantRunRequest = z.infer<typeof AcquireTenantRunRequest>;

/** Most calls or USD one lease or release may carry: far above any chunk, so only a broken caller meets it. */
export const MAX_LEASE_CALLS = 10_000;
export const MAX_LEASE_USD = 1_000_000;
const Calls = z.number().int().nonnegative().max(MAX_LEASE_CALLS);
const Usd = z.number().nonnegative().max(MAX_LEASE_USD);

export const LeaseTenantTokensRequest = z.object({
  workflowId: WorkflowId,
  tokens: z.number().int().nonnegative(),
  limits: TenantLimits,
  /** Calls asked from the per-minute window; absent: the quota's chunk (callsChunk). Only with `callsPerMinute`. */
  calls: Calls.optional(),
  /** USD asked from the hour's spend; absent: the quota's slice (costSlice). Only with `costPerHourUsd`. */
  usd: Usd.optional(),
  /** What the run spent beyond the USD it held (a reply costs what it costs): counted now. */
  overspentUsd: Usd.optional(),
});
export type LeaseTenantTokensRequest = z.infer<typeof LeaseTenantTokensRequest>;

export const ReleaseTenantRunRequest = z.object({
  workflowId: WorkflowId,
  /** Leased but not used; given back to the hour's window. */
  unusedTokens: z.number().int().nonnegative(),
  /** Leased calls not used (and not yet expired); given back to the minute's window. */
  unusedCalls: Calls.optional(),
  /** Leased USD not spent; given back to the hour's spend. */
  unusedUsd: Usd.optional(),
  /** Spent beyond the USD held; counted in the hour's spend. */
  overspentUsd: Usd.optional(),
});
export type ReleaseTenantRunRequest = z.infer<typeof ReleaseTenantRunRequest>;
