import { z } from 'zod';
import { TenantLimits } from '../../domain/identity/tenant-limits';
import type {
  AcquireTenantRunResult,
  LeaseTenantTokensResult,
  ReleaseTenantRunResult,
  TenantQuotaSnapshot,
} from './tenant-quota-messages';
import {
  count,
  counted as inWindow,
  freesAt,
  giveBack,
  MINUTE,
  MINUTE_WINDOW_MS,
  SPEND_HOUR,
  total,
  WindowEntry,
  type WindowShape,
} from './rate-windows';

/** Length of the sliding token window. */
export const TOKEN_WINDOW_MS = 3_600_000;
/** A run's leases less than this apart share one entry (keeping the first time), bounding the window's size. */
export const LEASE_MERGE_MS = 60_000;

export const ActiveRun = z.object({ workflowId: z.string(), since: z.number() });
export type ActiveRun = z.infer<typeof ActiveRun>;
export const TokenLease = z.object({ workflowId: z.string(), tokens: z.number().int().positive(), at: z.number() });
export type TokenLease = z.infer<typeof TokenLease>;

/** The carried state as version 1 wrote it (before the per-minute and spend windows): still read. */
export const TenantQuotaStateV1 = z.object({
  schemaVersion: z.literal(1),
  tenant: z.string(),
  limits: TenantLimits,
  activeRuns: z.array(ActiveRun),
  leases: z.array(TokenLease),
});

/**
 * A tenant's quota, carried through continue-as-new. Pure data; times are workflow time (epoch ms).
 * Every function below returns a new state and never reads a clock: `now` is passed in.
 */
export const TenantQuotaState = z.object({
  schemaVersion: z.literal(2),
  tenant: z.string(),
  /** The limits the last acquire or lease carried; the latest always applies. */
  limits: TenantLimits,
  activeRuns: z.array(ActiveRun),
  /** The hourly token window, per run (a release gives back the run's own). */
  leases: z.array(TokenLease),
  /** Calls leased in the last minute (only while `callsPerMinute` is set). */
  calls: z.array(WindowEntry),
  /** Tokens leased in the last minute (only while `tokensPerMinute` is set). */
  minuteTokens: z.array(WindowEntry),
  /** USD leased or reported spent in the last hour (only while `costPerHourUsd` is set). */
  spend: z.array(WindowEntry),
});
export type TenantQuotaState = z.infer<typeof TenantQuotaState>;

/** Reads carried state of either version; undefined when it is neither. */
export function readCarriedState(raw: unknown): TenantQuotaState | undefined {
  const current = TenantQuotaState.safeParse(raw);
  if (current.success) return current.data;
  const v1 = TenantQuotaStateV1.safeParse(raw);
  if (!v1.success) return undefined;
  return { ...v1.data, schemaVersion: 2, calls: [], minuteTokens: [], spend: [] };
}

export function emptyTenantQuotaState(tenant: string): TenantQuotaState {
  return { schemaVersion: 2, tenant, limits: {}, activeRuns: [], leases: [], calls: [], minuteTokens: [], spend: [] };
}

/** Calls a lease takes at once when the run names no number: a tenth of the minute, 1 to 10. */
export function callsChunk(callsPerMinute: number): number {
  return Math.min(10, Math.max(1, Math.ceil(callsPerMinute / 10)));
}
/** USD a lease takes at once when the run names no amount: a twentieth of the hour's cap. */
export function costSlice(costPerHourUsd: number): number {
  return Math.round((costPerHourUsd / 20) * 1e6) / 1e6;
}

/** What a lease asks of the per-minute and spend windows besides tokens. */
export interface RateAsk {
  calls?: number;
  usd?: number;
  overspentUsd?: number;
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
  ask: RateAsk = {},
): Step<LeaseTenantTokensResult> {
  const counted = countedLeases(state.leases, now);
  const used = sum(counted);
  const cap = limits.tokensPerHour;
  const minute = windowOf(state.minuteTokens, limits.tokensPerMinute, MINUTE, now);
  const hourLeft = cap === undefined ? Infinity : Math.max(0, cap - used);
  const granted = Math.min(tokens, hourLeft, minute.left);
  const leases = granted > 0 ? addLease(counted, workflowId, granted, now) : counted;
  const resetsAt = oldestExpiry(leases);
  const minuteTokens = minute.limited ? count(minute.entries, granted, MINUTE, now) : [];
  const calls = leaseCalls(state.calls, limits.callsPerMinute, ask.calls, now);
  const spend = leaseSpend(state.spend, limits.costPerHourUsd, ask, now);
  // A per-minute window that gave less than asked says when it has room again (the later of the two).
  const waits = [
    ...(minute.limited && granted < tokens ? [freesAt(minuteTokens, MINUTE)] : []),
    ...(calls.short ? [freesAt(calls.entries, MINUTE)] : []),
  ].filter((t): t is string => t !== undefined);
  const retryAt = waits.sort().at(-1);
  const rated = limits.callsPerMinute !== undefined || limits.tokensPerMinute !== undefined;
  return {
    state: { ...state, limits, leases, calls: calls.entries, minuteTokens, spend: spend.entries },
    result: {
      granted,
      usedThisHour: used + granted,
      ...(cap !== undefined ? { tokensPerHour: cap } : {}),
      ...(cap !== undefined && resetsAt !== undefined ? { resetsAt } : {}),
      ...calls.result,
      ...(minute.limited ? { tokensPerMinute: limits.tokensPerMinute, tokensThisMinute: total(minuteTokens) } : {}),
      ...spend.result,
      ...(retryAt !== undefined ? { retryAt } : {}),
      ...(rated ? { onRateLimit: limits.onRateLimit ?? 'wait' } : {}),
    },
  };
}

/** A window's counted entries and the room left under `cap` (Infinity when there is no cap). */
function windowOf(entries: readonly WindowEntry[], cap: number | undefined, shape: WindowShape, now: number) {
  if (cap === undefined) return { limited: false, entries: [], left: Infinity };
  const kept = inWindow(entries, shape, now);
  return { limited: true, entries: kept, left: Math.max(0, cap - total(kept)) };
}

function leaseCalls(entries: readonly WindowEntry[], cap: number | undefined, asked: number | undefined, now: number) {
  if (cap === undefined) return { entries: [], short: false, result: {} };
  const window = windowOf(entries, cap, MINUTE, now);
  const want = asked ?? callsChunk(cap);
  const granted = Math.min(want, window.left);
  const kept = count(window.entries, granted, MINUTE, now);
  return {
    entries: kept,
    short: want > 0 && granted === 0,
    result: {
      calls: granted,
      callsPerMinute: cap,
      callsThisMinute: total(kept),
      callsExpireAt: new Date(now + MINUTE_WINDOW_MS).toISOString(),
    },
  };
}

function leaseSpend(entries: readonly WindowEntry[], cap: number | undefined, ask: RateAsk, now: number) {
  if (cap === undefined) return { entries: [], result: {} };
  const window = inWindow(entries, SPEND_HOUR, now);
  const reported = count(window, ask.overspentUsd ?? 0, SPEND_HOUR, now);
  const left = Math.max(0, cap - total(reported));
  const granted = Math.round(Math.min(ask.usd ?? costSlice(cap), left) * 1e6) / 1e6;
  const kept = count(reported, granted, SPEND_HOUR, now);
  const frees = freesAt(kept, SPEND_HOUR);
  return {
    entries: kept,
    result: {
      usd: granted,
      costPerHourUsd: cap,
      spentThisHourUsd: total(kept),
      ...(frees !== undefined ? { spendFreesAt: frees } : {}),
    },
  };
}

/** Frees the slot and gives back up to `unusedTokens` of this run's counted leases, newest first. */
export function releaseRun(
  state: TenantQuotaState,
  workflowId: string,
  unusedTokens: number,
  now: number,
  back: { unusedCalls?: number; unusedUsd?: number; overspentUsd?: number } = {},
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
  // The windows hold no run ids: what comes back leaves their newest entries (later, never sooner).
  const calls = giveBack(inWindow(state.calls, MINUTE, now), back.unusedCalls ?? 0).entries;
  const spent = count(inWindow(state.spend, SPEND_HOUR, now), back.overspentUsd ?? 0, SPEND_HOUR, now);
  const spend = giveBack(spent, back.unusedUsd ?? 0).entries;
  return {
    state: { ...state, activeRuns, leases, calls, spend },
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
    windowEntries: state.calls.length + state.minuteTokens.length + state.spend.length,
    ...(state.limits.callsPerMinute !== undefined
      ? { callsThisMinute: total(windowOf(state.calls, 0, MINUTE, now).entries) }
      : {}),
    ...(state.limits.tokensPerMinute !== undefined
      ? { tokensThisMinute: total(windowOf(state.minuteTokens, 0, MINUTE, now).entries) }
      : {}),
    ...(state.limits.costPerHourUsd !== undefined
      ? { spentThisHourUsd: total(windowOf(state.spend, 0, SPEND_HOUR, now).entries) }
      : {}),
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
  carried?: TenantQuotaState | z.infer<typeof TenantQuotaStateV1>;
}
