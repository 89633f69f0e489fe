import type { SubAgentLimits, SubBudget } from '../../domain';

/** What the parent can still spend, minus what running siblings already hold. */
export interface ParentLeft {
  tokens?: number | undefined;
  usd?: number | undefined;
  msLeft?: number | undefined;
  iterations: number;
}

/** Below these a child could not do useful work; the call is refused instead. */
export const MIN_SUB_TOKENS = 1_024;
export const MIN_SUB_MS = 1_000;
/** The parent keeps this long after a child's deadline to read its answer before its own. */
const PARENT_MARGIN_MS = 2_000;

/**
 * A child's sub-budget: its own limits, each capped by an equal share of what the parent has
 * left, where the parent keeps one share for itself (`sharers` children still to start plus
 * the parent). A limit the parent does not have stays the child's own (or absent).
 */
export function carveSubBudget(
  limits: SubAgentLimits,
  left: ParentLeft,
  sharers: number,
): { budget: SubBudget } | { refused: string } {
  const shares = Math.max(1, sharers) + 1;
  if (left.iterations < 1) return { refused: 'the run has no iterations left to wait for a sub-agent' };
  const budget: SubBudget = { maxIterations: Math.min(limits.maxIterations ?? left.iterations, left.iterations) };
  if (left.tokens !== undefined) {
    const share = Math.floor(left.tokens / shares);
    const tokens = Math.min(limits.tokenBudget ?? share, share);
    if (tokens < MIN_SUB_TOKENS)
      return {
        refused: `only ${Math.max(0, share)} tokens of the run's budget could go to it (at least ${MIN_SUB_TOKENS} needed)`,
      };
    budget.tokenBudget = tokens;
  } else if (limits.tokenBudget !== undefined) budget.tokenBudget = limits.tokenBudget;
  if (left.usd !== undefined) {
    const share = Math.floor((left.usd / shares) * 1e6) / 1e6;
    const usd = Math.min(limits.costBudgetUsd ?? share, share);
    if (usd <= 0)
      return { refused: `no part of the run's cost budget is left for it ($${Math.max(0, left.usd).toFixed(6)} left)` };
    budget.costBudgetUsd = usd;
  } else if (limits.costBudgetUsd !== undefined) budget.costBudgetUsd = limits.costBudgetUsd;
  if (left.msLeft !== undefined) {
    const ms = Math.min(limits.runTimeoutMs ?? Number.MAX_SAFE_INTEGER, left.msLeft - PARENT_MARGIN_MS);
    if (ms < MIN_SUB_MS) return { refused: `the run's time limit leaves it ${Math.max(0, ms)} ms` };
    budget.runTimeoutMs = Math.floor(ms);
  } else if (limits.runTimeoutMs !== undefined) budget.runTimeoutMs = limits.runTimeoutMs;
  return { budget };
}
