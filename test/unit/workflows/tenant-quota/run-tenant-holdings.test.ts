import { describe, expect, it } from 'vitest';
import { zeroUsage } from '../../../../src/domain';
import { RunStateData } from '../../../../src/domain/run/continued-state';
import { RunState } from '../../../../src/workflows/core/state/run-state';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const reply = (costUsd: number) => ({
  content: [],
  stopReason: 'end_turn',
  model: 'm',
  usage: { ...zeroUsage(), inputTokens: 10, outputTokens: 5 },
  costUsd,
  durationMs: 0,
});

describe("a run's holdings of its tenant's calls and spend", () => {
  it('holds granted calls until they expire, and counts each call made', () => {
    const state = new RunState('m', [], 0);
    state.leaseTenantRates({ calls: 3, callsPerMinute: 30, callsExpireAt: iso(T0 + 60_000) }, T0);
    expect(state.tenantCalls(T0)).toBe(3);
    state.spendTenantCall();
    expect(state.tenantCalls(T0 + 59_999)).toBe(2);
    expect(state.tenantCalls(T0 + 60_000)).toBe(0);
    // A later grant starts from what is still usable: expired calls are not carried into it.
    state.leaseTenantRates({ calls: 3, callsPerMinute: 30, callsExpireAt: iso(T0 + 120_000) }, T0 + 60_000);
    expect(state.tenantCalls(T0 + 60_000)).toBe(3);
  });

  it('spends USD with every reply and tool spend, below zero when a reply costs more than held', () => {
    const state = new RunState('m', [], 0);
    state.leaseTenantRates({ usd: 0.25, costPerHourUsd: 5 }, T0);
    state.countReply(reply(0.1));
    state.countToolSpend({ usage: zeroUsage(), costUsd: 0.2 });
    expect(state.tenantTokens.usd).toBe(-0.05);
    // The overspend was reported with the lease that follows: the grant starts from zero.
    state.leaseTenantRates({ usd: 0.25, costPerHourUsd: 5 }, T0 + 1);
    expect(state.tenantTokens.usd).toBe(0.25);
  });

  it('a tenant without these limits holds neither, and a spent reply changes nothing of them', () => {
    const state = new RunState('m', [], 0);
    state.leaseTenantTokens(20_000, false);
    state.leaseTenantRates({}, T0);
    state.countReply(reply(1));
    state.spendTenantCall();
    expect(state.tenantTokens).toEqual({ allowance: 19_985, unlimited: false });
  });

  it('the holdings cross continue-as-new', () => {
    const state = new RunState('m', [], 0);
    state.leaseTenantRates(
      { calls: 2, callsPerMinute: 30, callsExpireAt: iso(T0 + 60_000), usd: 1, costPerHourUsd: 5 },
      T0,
    );
    const carried = RunStateData.parse(JSON.parse(JSON.stringify(state.carried('run-1'))));
    expect(RunState.restore(carried).tenantTokens).toEqual({
      allowance: 0,
      unlimited: false,
      calls: 2,
      callsExpireAt: T0 + 60_000,
      usd: 1,
    });
  });
});
