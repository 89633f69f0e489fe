import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { TenantLimits } from '../../shared/tenant-limits';
import type {
  AcquireTenantRunRequest,
  LeaseTenantTokensRequest,
  ReleaseTenantRunRequest,
} from './tenant-quota-requests';
import { fnv1a } from '../core/stable-hash';

/** Workflow id of a tenant's quota workflow. Characters outside [A-Za-z0-9_.-] become `_`, plus a hash of the raw id so two tenants never share one. */
export function tenantQuotaWorkflowId(tenant: string): string {
  const safe = tenant.replace(/[^A-Za-z0-9_.-]/g, '_');
  if (safe === tenant && safe.length > 0 && safe.length <= 200) return `thoughtline-tenant-${safe}`;
  return `thoughtline-tenant-${safe.slice(0, 200)}-${fnv1a(tenant)}`;
}

export { AcquireTenantRunRequest, LeaseTenantTokensRequest, ReleaseTenantRunRequest } from './tenant-quota-requests';

export type AcquireTenantRunResult =
  | { granted: true; activeRuns: number; maxConcurrentRuns?: number }
  | { granted: false; reason: string; activeRuns: number; maxConcurrentRuns: number };

export interface LeaseTenantTokensResult {
  /** min(asked, left this hour); 0 when the hour's tokens are spent. */
  granted: number;
  /** Tokens counted in the last hour, this grant included. */
  usedThisHour: number;
  tokensPerHour?: number;
  /** ISO time when the oldest counted lease leaves the window (tokens free up then). */
  resetsAt?: string;
}
export interface ReleaseTenantRunResult {
  /** False when the run held no slot (already released or reclaimed): nothing changed. */
  released: boolean;
  returnedTokens: number;
  activeRuns: number;
}

export interface TenantQuotaSnapshot {
  tenant: string;
  limits: TenantLimits;
  activeRuns: { workflowId: string; since: string }[];
  usedThisHour: number;
  resetsAt?: string;
  /** Lease entries counted in the window. */
  leases: number;
  /** Updates handled by this Temporal run (continue-as-new starts again at 0). */
  handledThisRun: number;
}

/** Takes a run slot. Idempotent per workflowId: acquiring again while holding a slot is granted and takes no second slot. */
export const acquireTenantRunUpdate = defineUpdate<AcquireTenantRunResult, [AcquireTenantRunRequest]>(
  'acquireTenantRun',
);
/** Leases up to `tokens` from the tenant's hourly budget. */
export const leaseTenantTokensUpdate = defineUpdate<LeaseTenantTokensResult, [LeaseTenantTokensRequest]>(
  'leaseTenantTokens',
);
/** Frees the run's slot and gives back unused tokens. Idempotent: only a run holding a slot is released. */
export const releaseTenantRunUpdate = defineUpdate<ReleaseTenantRunResult, [ReleaseTenantRunRequest]>(
  'releaseTenantRun',
);
/** The quota's current state, for the CLI and tests. */
export const tenantQuotaQuery = defineQuery<TenantQuotaSnapshot>('tenantQuota');
