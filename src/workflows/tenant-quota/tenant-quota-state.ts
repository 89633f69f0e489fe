import { z } from 'zod';
import { TenantLimits } from '../../shared/tenant-limits';
import type {
  AcquireTenantRunResult,
  LeaseTenantTokensResult,
  ReleaseTenantRunResult,
  TenantQuotaSnapshot,
} from './tenant-quota-messages';

/** Length of the sliding token window. */
export const TOKEN_WINDOW_MS = 3_600_000;
/** A run's leases less than this apart share one entry (keeping the first time), bounding the window's size. */
export const LEASE_MERGE_MS = 60_000;

export const ActiveRun = z.object({ workflowId: z.string(), since: z.number() });
export type ActiveRun = z.infer<typeof ActiveRun>;
export const TokenLease = z.object({ workflowId: z.string(), tokens: z.number().int().positive(), at: z.number() });
export type TokenLease = z.infer<typeof TokenLease>;

/**
 * A tenant's quota, carried through continue-as-new. Pure data; times are workflow time (epoch ms).
 * Every function below returns a new state and never reads a clock: `now` is passed in.
 */
export const TenantQuotaState = z.object({
  schemaVersion: z.literal(1),
  tenant: z.string(),
  /** The limits the last acquire or lease carried; the latest always applies. */
  limits: TenantLimits,
  activeRuns: z.array(ActiveRun),
  leases: z.array(TokenLease),
});
export type TenantQuotaState = z.infer<typeof TenantQuotaState>;

export function emptyTenantQuotaState(tenant: string): TenantQuotaState {
  return { schemaVersion: 1, tenant, limits: {}, activeRuns: [], leases: [] };
}

interface Step<R> {
  state: TenantQuotaState;
  result: R;
}

export function acquireRun(
  state: TenantQuotaState,
  workflowId: string,
  limits: TenantLimits,
  now: number,
): Step<AcquireTenantRunResult> {
  const max = limits.maxConcurrentRuns;
  const held = state.activeRuns.some((r) => r.workflowId === workflowId);
  const count = state.activeRuns.length;
  if (!held && max !== undefined && count >= max) {
    const reason = `Tenant "${state.tenant}" is at its limit of ${max} concurrent run${max === 1 ? '' : 's'} (${count} active); start this run again when one finishes.`;
    return {
      state: { ...state, limits },
      result: { granted: false, reason, activeRuns: count, maxConcurrentRuns: max },
    };
  }
  const activeRuns = held ? state.activeRuns : [...state.activeRuns, { workflowId, since: now }];
  return {
    state: { ...state, limits, activeRuns },
    result: { granted: true, activeRuns: activeRuns.length, ...(max !== undefined ? { maxConcurrentRuns: max } : {}) },
  };
}

export function leaseTokens(
  state: TenantQuotaState,
  workflowId: string,
  tokens: number,
  limits: TenantLimits,
  now: number,
): Step<LeaseTenantTokensResult> {
  const counted = countedLeases(state.leases, now);
  const used = sum(counted);
  const cap = limits.tokensPerHour;
  const granted = cap === undefined ? tokens : Math.min(tokens, Math.max(0, cap - used));
  const leases = granted > 0 ? addLease(counted, workflowId, granted, now) : counted;
  const resetsAt = oldestExpiry(leases);
  return {
    state: { ...state, limits, leases },
    result: {
      granted,
      usedThisHour: used + granted,
      ...(cap !== undefined ? { tokensPerHour: cap } : {}),
      ...(cap !== undefined && resetsAt !== undefined ? { resetsAt } : {}),
    },
  };
}

/** Frees the slot and gives back up to `unusedTokens` of this run's counted leases, newest first. */
export function releaseRun(
  state: TenantQuotaState,
  workflowId: string,
  unusedTokens: number,
  now: number,
): Step<ReleaseTenantRunResult> {
  if (!state.activeRuns.some((r) => r.workflowId === workflowId)) {
    return { state, result: { released: false, returnedTokens: 0, activeRuns: state.activeRuns.length } };
  }
  const activeRuns = state.activeRuns.filter((r) => r.workflowId !== workflowId);
  let left = unusedTokens;
  const leases = countedLeases(state.leases, now).reduceRight<TokenLease[]>((kept, lease) => {
    if (lease.workflowId !== workflowId || left === 0) return [lease, ...kept];
    const back = Math.min(left, lease.tokens);
    left -= back;
    return lease.tokens > back ? [{ ...lease, tokens: lease.tokens - back }, ...kept] : kept;
  }, []);
  return {
    state: { ...state, activeRuns, leases },
    result: { released: true, returnedTokens: unusedTokens - left, activeRuns: activeRuns.length },
  };
}

/**
 * Drops the slots of runs found closed. Only slots unchanged since the check began (same `since`)
 * go, so a run that released and acquired again while the check ran keeps its new slot.
 */
export function dropClosedRuns(
  state: TenantQuotaState,
  closed: readonly string[],
  checked: readonly ActiveRun[],
): TenantQuotaState {
  const stale = new Set(checked.filter((r) => closed.includes(r.workflowId)).map((r) => `${r.workflowId}@${r.since}`));
  if (stale.size === 0) return state;
  return { ...state, activeRuns: state.activeRuns.filter((r) => !stale.has(`${r.workflowId}@${r.since}`)) };
}

export function snapshotOf(state: TenantQuotaState, now: number, handledThisRun: number): TenantQuotaSnapshot {
  const counted = countedLeases(state.leases, now);
  const resetsAt = oldestExpiry(counted);
  return {
    tenant: state.tenant,
    limits: state.limits,
    activeRuns: state.activeRuns.map((r) => ({ workflowId: r.workflowId, since: new Date(r.since).toISOString() })),
    usedThisHour: sum(counted),
    ...(resetsAt !== undefined ? { resetsAt } : {}),
    leases: counted.length,
    handledThisRun,
  };
}

/** Leases still inside the window: younger than one hour at `now`. */
export function countedLeases(leases: readonly TokenLease[], now: number): TokenLease[] {
  return leases.filter((l) => l.at + TOKEN_WINDOW_MS > now);
}

function addLease(leases: TokenLease[], workflowId: string, tokens: number, now: number): TokenLease[] {
  const last = findLastIndex(leases, (l) => l.workflowId === workflowId);
  const entry = leases[last];
  if (entry === undefined || now - entry.at >= LEASE_MERGE_MS) return [...leases, { workflowId, tokens, at: now }];
  return leases.map((l, i) => (i === last ? { ...l, tokens: l.tokens + tokens } : l));
}

function oldestExpiry(leases: readonly TokenLease[]): string | undefined {
  if (leases.length === 0) return undefined;
  return new Date(Math.min(...leases.map((l) => l.at)) + TOKEN_WINDOW_MS).toISOString();
}

function sum(leases: readonly TokenLease[]): number {
  return leases.reduce((total, l) => total + l.tokens, 0);
}

function findLastIndex<T>(items: readonly T[], match: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (match(items[i] as T)) return i;
  return -1;
}

/** What starts a tenant's quota workflow, and what it hands to its next run (continue-as-new). */
export interface TenantQuotaInput {
  tenant: string;
  reclaimEveryMs?: number;
  continueAsNewAfter?: number;
  /** State handed over by the previous run of this quota (continue-as-new). */
  carried?: TenantQuotaState;
}
