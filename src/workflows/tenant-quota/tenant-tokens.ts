import { activities } from '../activity-proxies';
import { BudgetExhausted } from '../core/loop-signals';
import type { RunContext } from '../core/run-context';

/** Tokens leased from the tenant's hourly quota at a time, so most model calls need no lease. */
const LEASE_CHUNK = 20_000;

/**
 * Makes sure the run holds enough of its tenant's hourly tokens for the next model call, leasing
 * more from the tenant quota workflow (an activity) when it runs low. Runs without a tenant, or
 * whose tenant has no hourly limit, pass. Ends the run with `token_budget` when the hour is spent.
 */
export async function ensureTenantTokens({ input, state, workflowId }: RunContext, needed: number): Promise<void> {
  const tenant = input.caller?.tenant;
  const held = () => state.tenantTokens;
  if (!tenant || !needsTenantTokens({ input, state }, needed)) return;
  const lease = await activities.leaseTenantTokens({
    tenant,
    workflowId,
    tokens: Math.max(needed - held().allowance, LEASE_CHUNK),
  });
  state.leaseTenantTokens(lease.granted, lease.tokensPerHour === undefined);
  if (held().unlimited || held().allowance >= needed) return;
  const resets = lease.resetsAt ? `; tokens free up from ${lease.resetsAt}` : '';
  throw new BudgetExhausted(
    'token_budget',
    `Tenant "${tenant}" has used ${lease.usedThisHour} of its ${lease.tokensPerHour} tokens this hour${resets}.`,
  );
}

/** Whether the next call needs a lease first: false for most calls, which then need no await at all. Pure. */
export function needsTenantTokens({ input, state }: Pick<RunContext, 'input' | 'state'>, needed: number): boolean {
  const held = state.tenantTokens;
  return Boolean(input.caller?.tenant) && !held.unlimited && held.allowance < needed;
}
