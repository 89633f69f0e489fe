import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { TenantLimits } from '../../domain/identity/tenant-limits';
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
  /** The fields below are present only when the tenant has the matching limit. */
  /** Calls granted from the per-minute window. */
  calls?: number;
  callsPerMinute?: number;
  /** Calls counted in the last minute, this grant included. */
  callsThisMinute?: number;
  /** ISO time until which the granted calls may be used; later the run leases again. */
  callsExpireAt?: string;
  tokensPerMinute?: number;
  /** Tokens counted in the last minute, this grant included. */
  tokensThisMinute?: number;
  /** USD granted from the hour's spend. */
  usd?: number;
  costPerHourUsd?: number;
  /** USD counted in the last hour (leased, plus spend reported beyond it), this grant included. */
  spentThisHourUsd?: number;
  /** ISO time when the oldest counted spend leaves the hour. */
  spendFreesAt?: string;
  /** ISO time (workflow time) when a per-minute window that granted less than asked has room again. */
  retryAt?: string;
  onRateLimit?: 'wait' | 'stop';
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
  /** Entries of the per-minute and spend windows (bounded: at most 61 each). */
  windowEntries: number;
  callsThisMinute?: number;
  tokensThisMinute?: number;
  spentThisHourUsd?: number;
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
