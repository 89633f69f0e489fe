import { describe, expect, it } from 'vitest';
import {
  LeaseTenantTokensRequest,
  MAX_LEASE_CALLS,
  MAX_LEASE_USD,
  ReleaseTenantRunRequest,
} from '../../../../src/workflows/tenant-quota/tenant-quota-requests';
import {
  acquireRun,
  callsChunk,
  costSlice,
  emptyTenantQuotaState,
  leaseTokens,
  releaseRun,
  snapshotOf,
  type TenantQuotaState as State,
} from '../../../../src/workflows/tenant-quota/tenant-quota-state';
import { MINUTE_BUCKET_MS, MINUTE_WINDOW_MS } from '../../../../src/workflows/tenant-quota/rate-windows';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
/** Where an amount counted at T0 leaves the minute window: its bucket's end plus a minute. */
const MINUTE_FREE = T0 + MINUTE_BUCKET_MS + MINUTE_WINDOW_MS;

describe('calls per minute', () => {
  const limits = { callsPerMinute: 3 };

  it('grants exactly up to the limit, then nothing, saying when the window has room again', () => {
    const first = leaseTokens(emptyTenantQuotaState('acme'), 'a', 0, limits, T0, { calls: 3 });
    expect(first.result).toEqual({
      granted: 0,
      usedThisHour: 0,
      calls: 3,
      callsPerMinute: 3,
      callsThisMinute: 3,
      callsExpireAt: iso(T0 + MINUTE_WINDOW_MS),
      onRateLimit: 'wait',
    });
    const over = leaseTokens(first.state, 'b', 0, limits, T0 + 10_000, { calls: 1 });
    expect(over.result).toMatchObject({ calls: 0, callsThisMinute: 3, retryAt: iso(MINUTE_FREE) });
  });

  it('one over the limit is cut to the limit', () => {
    const step = leaseTokens(emptyTenantQuotaState('acme'), 'a', 0, limits, T0, { calls: 4 });
    expect(step.result.calls).toBe(3);
    expect(step.result.retryAt).toBeUndefined();
  });

  it('slides: a millisecond before the window frees nothing is granted, at it the calls are back', () => {
    const full = leaseTokens(emptyTenantQuotaState('acme'), 'a', 0, limits, T0, { calls: 3 }).state;
    expect(leaseTokens(full, 'b', 0, limits, MINUTE_FREE - 1, { calls: 1 }).result.calls).toBe(0);
    expect(leaseTokens(full, 'b', 0, limits, MINUTE_FREE, { calls: 3 }).result.calls).toBe(3);
  });

  it('takes the quota’s chunk when the run names no number, and says stop when the tenant asks for it', () => {
    expect([callsChunk(1), callsChunk(60), callsChunk(1_000)]).toEqual([1, 6, 10]);
    const step = leaseTokens(emptyTenantQuotaState('acme'), 'a', 0, { callsPerMinute: 60, onRateLimit: 'stop' }, T0);
    expect(step.result).toMatchObject({ calls: 6, onRateLimit: 'stop' });
  });

  it('a release gives the unused calls back to the window', () => {
    let state: State = acquireRun(emptyTenantQuotaState('acme'), 'a', limits, T0).state;
    state = leaseTokens(state, 'a', 0, limits, T0, { calls: 3 }).state;
    state = releaseRun(state, 'a', 0, T0 + 5_000, { unusedCalls: 2 }).state;
    expect(leaseTokens(state, 'b', 0, limits, T0 + 6_000, { calls: 3 }).result.calls).toBe(2);
  });
});

describe('tokens per minute, next to the hour', () => {
  it('grants the lower of what the minute and the hour leave, and says when the minute has room', () => {
    const limits = { tokensPerMinute: 1_000, tokensPerHour: 10_000 };
    const first = leaseTokens(emptyTenantQuotaState('acme'), 'a', 1_000, limits, T0);
    expect(first.result).toMatchObject({ granted: 1_000, tokensThisMinute: 1_000, usedThisHour: 1_000 });
    expect(first.result.retryAt).toBeUndefined();
    const over = leaseTokens(first.state, 'a', 1, limits, T0 + 1_000);
    expect(over.result).toMatchObject({ granted: 0, tokensThisMinute: 1_000, retryAt: iso(MINUTE_FREE) });
    const later = leaseTokens(first.state, 'a', 1_500, limits, MINUTE_FREE);
    expect(later.result).toMatchObject({ granted: 1_000, usedThisHour: 2_000 });
  });
});

describe('cost per hour', () => {
  const limits = { costPerHourUsd: 5 };

  it('leases slices of the cap until it is reached exactly, then grants nothing', () => {
    expect(costSlice(5)).toBe(0.25);
    let state = emptyTenantQuotaState('acme');
    for (let i = 0; i < 20; i++) {
      const step = leaseTokens(state, 'a', 0, limits, T0 + i * 1_000);
      expect(step.result.usd).toBe(0.25);
      state = step.state;
    }
    const at = leaseTokens(state, 'a', 0, limits, T0 + 30_000);
    expect(at.result).toMatchObject({ usd: 0, spentThisHourUsd: 5, costPerHourUsd: 5 });
    expect(at.result.spendFreesAt).toBe(iso(T0 + 60_000 + 3_600_000));
  });

  it('counts spend reported beyond what a run held, so the hour shows what was really spent', () => {
    const held = leaseTokens(emptyTenantQuotaState('acme'), 'a', 0, limits, T0, { usd: 5 });
    expect(held.result.usd).toBe(5);
    const over = leaseTokens(held.state, 'a', 0, limits, T0 + 1_000, { overspentUsd: 0.02 });
    expect(over.result).toMatchObject({ usd: 0, spentThisHourUsd: 5.02 });
  });

  it('one cent under the cap grants that cent; a release gives back unspent USD and counts overspend', () => {
    let state: State = acquireRun(emptyTenantQuotaState('acme'), 'a', limits, T0).state;
    state = leaseTokens(state, 'a', 0, limits, T0, { usd: 4.99 }).state;
    expect(leaseTokens(state, 'b', 0, limits, T0, { usd: 1 }).result.usd).toBe(0.01);
    const released = releaseRun(state, 'a', 0, T0 + 1_000, { unusedUsd: 1.5 }).state;
    expect(snapshotOf(released, T0 + 1_000, 0).spentThisHourUsd).toBe(3.49);
    const overspent = releaseRun(state, 'a', 0, T0 + 1_000, { overspentUsd: 0.1 }).state;
    expect(snapshotOf(overspent, T0 + 1_000, 0).spentThisHourUsd).toBe(5.09);
  });

  it('the spend leaves the window an hour after its bucket', () => {
    const state = leaseTokens(emptyTenantQuotaState('acme'), 'a', 0, limits, T0, { usd: 5 }).state;
    expect(leaseTokens(state, 'a', 0, limits, T0 + 3_659_999).result.usd).toBe(0);
    expect(leaseTokens(state, 'a', 0, limits, T0 + 3_660_000).result.usd).toBe(0.25);
  });
});

describe('bounds and today’s tenants', () => {
  it('a long busy window stays bounded: a lease every 100 ms for two hours keeps at most 61 entries per window', () => {
    const limits = { callsPerMinute: 1_000_000, tokensPerMinute: 1_000_000_000, costPerHourUsd: 1_000_000 };
    let state = emptyTenantQuotaState('acme');
    let most = 0;
    for (let now = T0; now < T0 + 2 * 3_600_000; now += 100) {
      state = leaseTokens(state, `run-${now % 7}`, 10, limits, now, { calls: 1, usd: 0.01 }).state;
      most = Math.max(most, state.calls.length, state.minuteTokens.length, state.spend.length);
    }
    expect(most).toBeLessThanOrEqual(61);
    expect(snapshotOf(state, T0 + 2 * 3_600_000, 0).windowEntries).toBeLessThanOrEqual(3 * 61);
  });

  it('a tenant without these limits gets the lease answer of before, and its state keeps empty windows', () => {
    const step = leaseTokens(emptyTenantQuotaState('acme'), 'a', 500, { tokensPerHour: 1_000 }, T0);
    expect(step.result).toEqual({
      granted: 500,
      usedThisHour: 500,
      tokensPerHour: 1_000,
      resetsAt: iso(T0 + 3_600_000),
    });
    expect([step.state.calls, step.state.minuteTokens, step.state.spend]).toEqual([[], [], []]);
  });

  it('a lease or release carries at most MAX_LEASE_CALLS calls and MAX_LEASE_USD dollars', () => {
    const lease = { workflowId: 'a', tokens: 0, limits: {} };
    expect(LeaseTenantTokensRequest.safeParse({ ...lease, calls: MAX_LEASE_CALLS, usd: MAX_LEASE_USD }).success).toBe(
      true,
    );
    expect(LeaseTenantTokensRequest.safeParse({ ...lease, calls: MAX_LEASE_CALLS + 1 }).success).toBe(false);
    expect(LeaseTenantTokensRequest.safeParse({ ...lease, overspentUsd: MAX_LEASE_USD + 1 }).success).toBe(false);
    const release = { workflowId: 'a', unusedTokens: 0 };
    expect(ReleaseTenantRunRequest.safeParse({ ...release, unusedCalls: MAX_LEASE_CALLS }).success).toBe(true);
    expect(ReleaseTenantRunRequest.safeParse({ ...release, unusedUsd: -1 }).success).toBe(false);
  });
});
