import { describe, expect, it } from 'vitest';
import { limitsFor, TenantLimitsConfig } from '../../../../src/domain/identity/tenant-limits';
import { tenantQuotaWorkflowId } from '../../../../src/workflows/tenant-quota/tenant-quota-messages';
import {
  acquireRun,
  dropClosedRuns,
  emptyTenantQuotaState,
  LEASE_MERGE_MS,
  leaseTokens,
  readCarriedState,
  releaseRun,
  snapshotOf,
  TenantQuotaState,
  TOKEN_WINDOW_MS,
  type TenantQuotaState as State,
} from '../../../../src/workflows/tenant-quota/tenant-quota-state';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const MIN = 60_000;
const runs = { maxConcurrentRuns: 2 };
const tokens = { tokensPerHour: 1_000 };

/** The state after each id acquired a slot, in order. */
function acquireAll(state: State, ids: string[], now = T0) {
  return ids.reduce((s, id) => acquireRun(s, id, runs, now).state, state);
}

describe('run slots', () => {
  it('grants up to the limit and refuses the next with a reason naming tenant and limit', () => {
    let state = acquireAll(emptyTenantQuotaState('acme'), ['a', 'b']);
    const refused = acquireRun(state, 'c', runs, T0);
    expect(refused.result).toEqual({
      granted: false,
      reason: 'Tenant "acme" is at its limit of 2 concurrent runs (2 active); start this run again when one finishes.',
      activeRuns: 2,
      maxConcurrentRuns: 2,
    });
    expect(refused.state.activeRuns.map((r) => r.workflowId)).toEqual(['a', 'b']);
    state = releaseRun(state, 'a', 0, T0 + 1).state;
    const granted = acquireRun(state, 'c', runs, T0 + 2);
    expect(granted.result).toEqual({ granted: true, activeRuns: 2, maxConcurrentRuns: 2 });
    expect(granted.state.activeRuns).toEqual([
      { workflowId: 'b', since: T0 },
      { workflowId: 'c', since: T0 + 2 },
    ]);
  });

  it('is idempotent: acquiring again while holding a slot takes no second slot, even at the limit', () => {
    const state = acquireAll(emptyTenantQuotaState('acme'), ['a', 'b']);
    const again = acquireRun(state, 'a', runs, T0 + 5);
    expect(again.result).toEqual({ granted: true, activeRuns: 2, maxConcurrentRuns: 2 });
    expect(again.state.activeRuns).toEqual(state.activeRuns);
  });

  it('counts runs without a concurrency limit and grants every one', () => {
    const state = ['a', 'b', 'c'].reduce((s, id) => acquireRun(s, id, {}, T0).state, emptyTenantQuotaState('acme'));
    const step = acquireRun(state, 'x', {}, T0);
    expect(step.result).toEqual({ granted: true, activeRuns: 4 });
    expect(step.state.limits).toEqual({});
  });

  it('applies the latest limits it is given', () => {
    const state = acquireAll(emptyTenantQuotaState('acme'), ['a', 'b']);
    expect(acquireRun(state, 'c', { maxConcurrentRuns: 3 }, T0).result.granted).toBe(true);
    expect(acquireRun(state, 'c', { maxConcurrentRuns: 1 }, T0).result).toMatchObject({
      granted: false,
      maxConcurrentRuns: 1,
    });
  });

  it('releases once: a second release changes nothing', () => {
    let state = acquireAll(emptyTenantQuotaState('acme'), ['a']);
    state = leaseTokens(state, 'a', 500, tokens, T0).state;
    const first = releaseRun(state, 'a', 200, T0 + MIN);
    expect(first.result).toEqual({ released: true, returnedTokens: 200, activeRuns: 0 });
    const second = releaseRun(first.state, 'a', 200, T0 + MIN);
    expect(second.result).toEqual({ released: false, returnedTokens: 0, activeRuns: 0 });
    expect(second.state).toBe(first.state);
    expect(snapshotOf(second.state, T0 + MIN, 0).usedThisHour).toBe(300);
  });

  it('drops only slots that are unchanged since the check began', () => {
    const checkedState = acquireAll(emptyTenantQuotaState('acme'), ['a', 'b']);
    const checked = checkedState.activeRuns;
    // While the check ran, 'b' released and a new run with the same id acquired again.
    const later = acquireRun(releaseRun(checkedState, 'b', 0, T0 + 10).state, 'b', runs, T0 + 20).state;
    const after = dropClosedRuns(later, ['a', 'b'], checked);
    expect(after.activeRuns).toEqual([{ workflowId: 'b', since: T0 + 20 }]);
    expect(dropClosedRuns(later, [], checked)).toBe(later);
  });
});

describe('hourly token window', () => {
  it('grants min(asked, left) until spent, then 0 with the time the oldest lease leaves the window', () => {
    let state = emptyTenantQuotaState('acme');
    const first = leaseTokens(state, 'a', 600, tokens, T0);
    expect(first.result).toEqual({
      granted: 600,
      usedThisHour: 600,
      tokensPerHour: 1_000,
      resetsAt: new Date(T0 + TOKEN_WINDOW_MS).toISOString(),
    });
    state = first.state;
    const second = leaseTokens(state, 'b', 600, tokens, T0 + 5 * MIN);
    expect(second.result).toMatchObject({ granted: 400, usedThisHour: 1_000 });
    state = second.state;
    const spent = leaseTokens(state, 'a', 100, tokens, T0 + 10 * MIN);
    expect(spent.result).toEqual({
      granted: 0,
      usedThisHour: 1_000,
      tokensPerHour: 1_000,
      resetsAt: '2025-01-01T01:00:00.000Z',
    });
    expect(spent.state.leases).toEqual(state.leases);
  });

  it('stops counting leases one hour after they were granted', () => {
    let state = leaseTokens(emptyTenantQuotaState('acme'), 'a', 700, tokens, T0).state;
    state = leaseTokens(state, 'b', 300, tokens, T0 + 30 * MIN).state;
    expect(leaseTokens(state, 'c', 1, tokens, T0 + TOKEN_WINDOW_MS - 1).result.granted).toBe(0);
    const afterHour = leaseTokens(state, 'c', 1_000, tokens, T0 + TOKEN_WINDOW_MS);
    expect(afterHour.result).toEqual({
      granted: 700,
      usedThisHour: 1_000,
      tokensPerHour: 1_000,
      resetsAt: new Date(T0 + 30 * MIN + TOKEN_WINDOW_MS).toISOString(),
    });
    // The expired entry is gone from the state, so the window stays small.
    expect(afterHour.state.leases.map((l) => l.workflowId)).toEqual(['b', 'c']);
  });

  it('makes unused tokens given back on release usable again, up to what the run leased', () => {
    let state = acquireAll(emptyTenantQuotaState('acme'), ['a', 'b']);
    state = leaseTokens(state, 'a', 400, tokens, T0).state;
    state = leaseTokens(state, 'b', 600, tokens, T0 + 2 * MIN).state;
    expect(leaseTokens(state, 'b', 1, tokens, T0 + 3 * MIN).result.granted).toBe(0);
    const released = releaseRun(state, 'a', 5_000, T0 + 4 * MIN);
    expect(released.result).toEqual({ released: true, returnedTokens: 400, activeRuns: 1 });
    expect(leaseTokens(released.state, 'b', 1_000, tokens, T0 + 5 * MIN).result).toMatchObject({
      granted: 400,
      usedThisHour: 1_000,
    });
  });

  it('gives back from the run’s newest leases first', () => {
    let state = acquireAll(emptyTenantQuotaState('acme'), ['a']);
    state = leaseTokens(state, 'a', 300, tokens, T0).state;
    state = leaseTokens(state, 'a', 200, tokens, T0 + 2 * MIN).state;
    const released = releaseRun(state, 'a', 250, T0 + 3 * MIN).state;
    expect(released.leases).toEqual([{ workflowId: 'a', tokens: 250, at: T0 }]);
  });

  it('merges a run’s leases less than a minute apart into its first entry', () => {
    let state = leaseTokens(emptyTenantQuotaState('acme'), 'a', 100, tokens, T0).state;
    state = leaseTokens(state, 'b', 100, tokens, T0 + 1_000).state;
    state = leaseTokens(state, 'a', 50, tokens, T0 + LEASE_MERGE_MS - 1).state;
    state = leaseTokens(state, 'a', 25, tokens, T0 + LEASE_MERGE_MS).state;
    expect(state.leases).toEqual([
      { workflowId: 'a', tokens: 150, at: T0 },
      { workflowId: 'b', tokens: 100, at: T0 + 1_000 },
      { workflowId: 'a', tokens: 25, at: T0 + LEASE_MERGE_MS },
    ]);
  });

  it('grants what is asked without a token limit but still counts it', () => {
    const step = leaseTokens(emptyTenantQuotaState('acme'), 'a', 123_456, { maxConcurrentRuns: 1 }, T0);
    expect(step.result).toEqual({ granted: 123_456, usedThisHour: 123_456 });
    expect(snapshotOf(step.state, T0, 1)).toMatchObject({ usedThisHour: 123_456, leases: 1, handledThisRun: 1 });
  });
});

describe('carried state and configuration', () => {
  it('reads a carried state of schemaVersion 1 as version 2 with empty rate windows, and rejects an unknown version', () => {
    const v1 = {
      schemaVersion: 1,
      tenant: 'acme',
      limits: { maxConcurrentRuns: 2, tokensPerHour: 1_000 },
      activeRuns: [{ workflowId: 'a', since: T0 }],
      leases: [{ workflowId: 'a', tokens: 10, at: T0 }],
    };
    const read = readCarriedState(JSON.parse(JSON.stringify(v1)));
    expect(read).toEqual({ ...v1, schemaVersion: 2, calls: [], minuteTokens: [], spend: [] });
    expect(TenantQuotaState.parse(JSON.parse(JSON.stringify(read)))).toEqual(read);
    expect(readCarriedState({ ...v1, schemaVersion: 3 })).toBeUndefined();
    expect(readCarriedState({ ...v1, schemaVersion: 2 })).toBeUndefined();
  });

  it('limitsFor puts the tenant’s fields over the default and returns undefined when nothing limits', () => {
    const config = TenantLimitsConfig.parse({
      default: { maxConcurrentRuns: 5 },
      tenants: { acme: { tokensPerHour: 1_000 }, big: { maxConcurrentRuns: 50 } },
    });
    expect(limitsFor(config, 'acme')).toEqual({ maxConcurrentRuns: 5, tokensPerHour: 1_000 });
    expect(limitsFor(config, 'big')).toEqual({ maxConcurrentRuns: 50 });
    expect(limitsFor(config, 'other')).toEqual({ maxConcurrentRuns: 5 });
    expect(limitsFor(config, 'constructor')).toEqual({ maxConcurrentRuns: 5 });
    const none = TenantLimitsConfig.parse({ tenants: { acme: { tokensPerHour: 10 } } });
    expect(limitsFor(none, 'other')).toBeUndefined();
    expect(TenantLimitsConfig.safeParse({ tenants: { acme: { maxConcurrentRuns: 0 } } }).success).toBe(false);
    expect(TenantLimitsConfig.safeParse({ tenants: { acme: { tokensPerHour: 1.5 } } }).success).toBe(false);
  });

  it('tenantQuotaWorkflowId keeps safe ids readable and never merges two tenants', () => {
    expect(tenantQuotaWorkflowId('acme-1.eu_west')).toBe('thoughtline-tenant-acme-1.eu_west');
    const spaced = tenantQuotaWorkflowId('acme corp');
    expect(spaced).toMatch(/^thoughtline-tenant-acme_corp-[0-9a-f]{8}$/);
    expect(spaced).not.toBe(tenantQuotaWorkflowId('acme_corp'));
    expect(tenantQuotaWorkflowId('a/b')).not.toBe(tenantQuotaWorkflowId('a:b'));
    expect(tenantQuotaWorkflowId('')).toMatch(/^thoughtline-tenant--[0-9a-f]{8}$/);
  });
});
