import { sleep } from '@temporalio/workflow';
import { activities } from '../activity-proxies';
import { BudgetExhausted } from '../core/loop-signals';
import type { RunContext } from '../core/state/run-context';
import type { LeaseTenantTokensResult } from './tenant-quota-messages';

/** Tokens leased from the tenant's hourly quota at a time, so most model calls need no lease. */
const LEASE_CHUNK = 20_000;
/** The shortest wait for a per-minute window: the quota's clock and the run's differ by a task or two. */
const MIN_WAIT_MS = 1_000;

/**
 * Makes sure the run holds what its next call needs from its tenant's quota: `needed` tokens
 * (hourly and per-minute), `calls` calls of the per-minute window (1 before each model and tool
 * call) and some of the hour's spend, leasing more from the tenant quota workflow (an activity)
 * when it runs low (`needed` 0: a tool call, which needs no tokens). Runs without a tenant, or whose tenant has none of these limits, pass.
 * At a per-minute limit the run waits (a visible note and one timer) or stops, as the tenant's
 * `onRateLimit` says; when the hour's tokens are spent it ends with `token_budget`, at the
 * hour's cost cap with `cost_budget`. Consumes nothing: the caller counts the call it makes.
 */
export async function ensureTenantTokens(ctx: RunContext, needed: number, calls = 1): Promise<void> {
  const { input, state, workflowId, chain } = ctx;
  const tenant = input.caller?.tenant;
  if (!tenant || !needsTenantTokens(ctx, needed, calls)) return;
  for (;;) {
    const held = state.tenantTokens;
    const now = Date.now();
    const tokensShort = needed > 0 && !held.unlimited && held.allowance < needed;
    const lease = await activities.leaseTenantTokens({
      tenant,
      workflowId,
      tokens: tokensShort ? Math.max(needed - held.allowance, LEASE_CHUNK) : 0,
      // Absent: the quota's own chunk. Only named when the run holds enough (tenants with the limit).
      ...(held.calls !== undefined && state.tenantCalls(now) >= calls ? { calls: 0 } : {}),
      ...(held.usd !== undefined && held.usd > 0 ? { usd: 0 } : {}),
      ...(held.usd !== undefined && held.usd < 0 ? { overspentUsd: -held.usd } : {}),
    });
    state.leaseTenantTokens(lease.granted, lease.tokensPerHour === undefined && lease.tokensPerMinute === undefined);
    state.leaseTenantRates(lease, Date.now());
    const after = state.tenantTokens;
    if (after.usd !== undefined && after.usd <= 0)
      throw new BudgetExhausted('cost_budget', costCapReason(tenant, lease), true);
    const tokensLeft = needed <= 0 || after.unlimited || after.allowance >= needed;
    if (!tokensLeft && !minuteTokensShort(lease, needed - after.allowance)) {
      const resets = lease.resetsAt ? `; tokens free up from ${lease.resetsAt}` : '';
      throw new BudgetExhausted(
        'token_budget',
        `Tenant "${tenant}" has used ${lease.usedThisHour} of its ${lease.tokensPerHour} tokens this hour${resets}.`,
        true,
      );
    }
    if (!tokensLeft && lease.tokensPerMinute !== undefined && needed > lease.tokensPerMinute) {
      throw new BudgetExhausted(
        'token_budget',
        `The next model call needs ${needed} tokens, more than tenant "${tenant}"'s limit of ${lease.tokensPerMinute} tokens per minute.`,
        true,
      );
    }
    const callsLeft = after.calls === undefined || state.tenantCalls(Date.now()) >= calls;
    if (tokensLeft && callsLeft) return;
    const limit = callsLeft ? perMinute(lease.tokensPerMinute, 'token') : perMinute(lease.callsPerMinute, 'call');
    const retryAt = lease.retryAt ?? new Date(Date.now() + 60_000).toISOString();
    if (lease.onRateLimit === 'stop') {
      throw new BudgetExhausted(
        'token_budget',
        `Tenant "${tenant}" is at its limit of ${limit} (room again at ${retryAt}); its onRateLimit is 'stop'.`,
        true,
      );
    }
    chain.note('rate_limit', `Waiting for tenant ${tenant}'s limit of ${limit}; continuing at ${retryAt}.`, {
      level: 'full',
    });
    // Cancellable like any other wait of the run: a cancel ends the run as cancelled.
    await sleep(Math.max(MIN_WAIT_MS, Date.parse(retryAt) - Date.now()));
  }
}

/**
 * Whether the next call needs a lease first: false for most calls, which then need no await at
 * all. Before any lease the run knows nothing of its tenant's limits and leases. Pure.
 */
export function needsTenantTokens(
  { input, state }: Pick<RunContext, 'input' | 'state'>,
  needed: number,
  calls = 1,
): boolean {
  if (!input.caller?.tenant) return false;
  const held = state.tenantTokens;
  if (needed > 0 && !held.unlimited && held.allowance < needed) return true;
  if (held.calls !== undefined && state.tenantCalls(Date.now()) < calls) return true;
  return held.usd !== undefined && held.usd <= 0;
}

/** Whether the per-minute token window (not the hour) left the run short of `short` tokens. */
function minuteTokensShort(lease: LeaseTenantTokensResult, short: number): boolean {
  if (lease.tokensPerMinute === undefined) return false;
  const hourLeft = lease.tokensPerHour === undefined ? Infinity : lease.tokensPerHour - lease.usedThisHour;
  return hourLeft >= short;
}

function costCapReason(tenant: string, lease: LeaseTenantTokensResult): string {
  const frees = lease.spendFreesAt ? `; spend frees up from ${lease.spendFreesAt}` : '';
  return `Tenant ${tenant} has spent $${usd(lease.spentThisHourUsd ?? 0)} of its $${usd(lease.costPerHourUsd ?? 0)} per hour${frees}.`;
}

const usd = (n: number): string => n.toFixed(2);
const perMinute = (n: number | undefined, what: string): string => `${n} ${what}${n === 1 ? '' : 's'} per minute`;
