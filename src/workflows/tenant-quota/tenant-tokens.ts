import { workflowInfo } from '@temporalio/workflow';
import type { AgentInput } from '../../shared';
import { activities } from '../activity-proxies';
import { BudgetExhausted } from '../model/budget';
import type { RunState } from '../core/run-state';

/** Tokens leased from the tenant's hourly quota at a time, so most model calls need no lease. */
const LEASE_CHUNK = 20_000;

/**
 * Makes sure the run holds enough of its tenant's hourly tokens for the next model call, leasing
 * more from the tenant quota workflow (an activity) when it runs low. Runs without a tenant, or
 * whose tenant has no hourly limit, pass. Ends the run with `token_budget` when the hour is spent.
 */
export async function ensureTenantTokens(input: AgentInput, state: RunState, needed: number): Promise<void> {
  const tenant = input.caller?.tenant;
  if (!tenant || state.tenant.unlimited || state.tenant.allowance >= needed) return;
  const lease = await activities.leaseTenantTokens({ tenant, workflowId: workflowInfo().workflowId, tokens: Math.max(needed - state.tenant.allowance, LEASE_CHUNK) });
  if (lease.tokensPerHour === undefined) state.tenant.unlimited = true;
  state.tenant.allowance += lease.granted;
  if (state.tenant.unlimited || state.tenant.allowance >= needed) return;
  const resets = lease.resetsAt ? `; tokens free up from ${lease.resetsAt}` : '';
  throw new BudgetExhausted('token_budget', `Tenant "${tenant}" has used ${lease.usedThisHour} of its ${lease.tokensPerHour} tokens this hour${resets}.`);
}
