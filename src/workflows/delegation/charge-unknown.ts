import type { SubBudget } from '../../domain';
import type { RunState } from '../core/state/run-state';

/**
 * Charges a child's (or a remote agent's) whole sub-budget when its spend cannot be known; says so
 * for the chain. `remote`: a remote agent's, which also comes out of the tenant's quota (RunState.countRemoteSpend).
 */
export function chargeUnknown(state: RunState, budget: SubBudget, remote = false): string {
  const tokens = budget.tokenBudget ?? 0;
  const usd = budget.costBudgetUsd ?? 0;
  if (tokens === 0 && usd === 0) return '';
  const usage = { inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  if (remote) state.countRemoteSpend({ usage, costUsd: usd });
  else state.countDelegated({ usage, costUsd: usd, iterations: 0 });
  return ` Its spend is unknown, so its whole sub-budget (${tokens} tokens, $${usd}) is charged to this run.`;
}
