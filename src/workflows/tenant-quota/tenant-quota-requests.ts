import { z } from 'zod';
import { TenantLimits } from '../../shared/tenant-limits';

/*
 * What the tenant quota workflow's updates accept (their definitions are in
 * tenant-quota-messages.ts). Here, apart from the definitions, because this module is pure: the
 * workflow bundle preloads it once per V8 context instead of building the schemas for every run.
 */

const WorkflowId = z.string().min(1);

export const AcquireTenantRunRequest = z.object({ workflowId: WorkflowId, limits: TenantLimits });
export type AcquireTenantRunRequest = z.infer<typeof AcquireTenantRunRequest>;

export const LeaseTenantTokensRequest = z.object({
  workflowId: WorkflowId,
  tokens: z.number().int().nonnegative(),
  limits: TenantLimits,
});
export type LeaseTenantTokensRequest = z.infer<typeof LeaseTenantTokensRequest>;

export const ReleaseTenantRunRequest = z.object({
  workflowId: WorkflowId,
  /** Leased but not used; given back to the hour's window. */
  unusedTokens: z.number().int().nonnegative(),
});
export type ReleaseTenantRunRequest = z.infer<typeof ReleaseTenantRunRequest>;
