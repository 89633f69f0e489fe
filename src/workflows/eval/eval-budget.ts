import type { CaseLimits } from '../../domain/evaluation/eval-case';
import type { EvaluationInput } from '../../domain/evaluation/evaluation-input';

/** What one started run may spend: the limits it runs with (AgentInput fields), reserved until it reports. */
export interface BudgetGrant {
  costBudgetUsd?: number;
  tokenBudget?: number;
}

export interface Spent {
  costUsd: number;
  tokens: number;
}

/** `grant`: start the next run with these limits; `wait`: runs in flight may hand back what they did not use; `spent`: no run starts again. */
export type BudgetClaim = { grant: BudgetGrant } | { wait: true } | { spent: true };

/** The least part of the total a run starts with; once less is left, runs wait for in-flight leftovers, or the budget is spent. */
const MIN_SHARE = 0.01;

/**
 * One budget for a whole evaluation (`budget.costUsd`, `budget.tokens`), which in-flight runs can
 * never overshoot together. The rule: a run starts with, per limited dimension, the smaller of its
 * own limit (caseBudgetLimits) and its share of what is left, where "left" is the total less what ended runs
 * spent and what running ones hold in reserve, shared equally among the free slots
 * (`min(concurrency − running, units not started)`). Its grant stays reserved until it reports;
 * then its actual spend is charged and the rest goes back to the pool (a run that never reports,
 * its workflow failed or cancelled before it did, is charged its whole grant: its spend is unknown). So the sum of grants in
 * flight never exceeds what is left, and each run is held to its grant by its own budget checks.
 * A share is never under 1% of the total (a wide concurrency would make shares too small to
 * start); once less than that is left, the next unit waits for in-flight runs' leftovers, and with
 * none in flight the budget is spent and the remaining units are skipped. Without a budget every claim is granted
 * the case's own limits. Deterministic; the evaluation carries `spent` into its shards.
 */
export class EvalBudget {
  private reserved: Spent = { costUsd: 0, tokens: 0 };
  readonly spent: Spent;

  constructor(
    private readonly total: EvaluationInput['budget'],
    spentBefore: Spent = { costUsd: 0, tokens: 0 },
  ) {
    this.spent = { ...spentBefore };
  }

  /** The limits of the next run, or why it cannot start now. `freeSlots` ≥ 1. */
  claim(
    limits: Pick<CaseLimits, 'costBudgetUsd' | 'tokenBudget'> | undefined,
    freeSlots: number,
    running: number,
  ): BudgetClaim {
    const cost = this.share(this.total?.costUsd, this.spent.costUsd + this.reserved.costUsd, freeSlots, false);
    const tokens = this.share(this.total?.tokens, this.spent.tokens + this.reserved.tokens, freeSlots, true);
    if (cost === 'short' || tokens === 'short') return running > 0 ? { wait: true } : { spent: true };
    const grant: BudgetGrant = {
      ...smaller('costBudgetUsd', limits?.costBudgetUsd, cost),
      ...smaller('tokenBudget', limits?.tokenBudget, tokens),
    };
    this.reserved = {
      costUsd: this.reserved.costUsd + (this.total?.costUsd !== undefined ? (grant.costBudgetUsd ?? 0) : 0),
      tokens: this.reserved.tokens + (this.total?.tokens !== undefined ? (grant.tokenBudget ?? 0) : 0),
    };
    return { grant };
  }

  /** A run reported (`actual`) or ended without a report (undefined: charged its whole grant). */
  settle(grant: BudgetGrant, actual: Spent | undefined): void {
    const held = {
      costUsd: this.total?.costUsd !== undefined ? (grant.costBudgetUsd ?? 0) : 0,
      tokens: this.total?.tokens !== undefined ? (grant.tokenBudget ?? 0) : 0,
    };
    this.reserved = {
      costUsd: Math.max(0, this.reserved.costUsd - held.costUsd),
      tokens: Math.max(0, this.reserved.tokens - held.tokens),
    };
    const charged = actual ?? held;
    this.spent.costUsd += charged.costUsd;
    this.spent.tokens += charged.tokens;
  }

  /**
   * A run's share of `total` (undefined: no limit; whole tokens when `whole`): what is left over
   * the free slots, but at least 1% of the total while that much is left (so a wide concurrency
   * never makes shares too small to start); `short` once less than that is left.
   */
  private share(
    total: number | undefined,
    held: number,
    freeSlots: number,
    whole: boolean,
  ): number | 'short' | undefined {
    if (total === undefined) return undefined;
    const left = total - held;
    const least = total * MIN_SHARE;
    if (left <= 0 || left < least) return 'short';
    const exact = Math.max(left / Math.max(1, freeSlots), least);
    const share = whole ? Math.floor(exact) : exact;
    return share > 0 ? share : 'short';
  }
}

function smaller<K extends keyof BudgetGrant>(key: K, limit: number | undefined, share: number | undefined) {
  const value = limit === undefined ? share : share === undefined ? limit : Math.min(limit, share);
  return value === undefined ? {} : ({ [key]: value } as Pick<BudgetGrant, K>);
}
