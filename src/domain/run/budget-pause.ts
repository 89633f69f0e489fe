import { z } from 'zod';
import { roleProblem } from '../approval/decision-roles';
import { DecisionSignatureField } from '../approval/signed-decision';
import { Person } from '../identity/people';

/*
 * "Pause and raise" budgets (`onBudget: 'ask'`): a run that reaches its token, cost or iteration
 * budget waits, at no cost, for a person to raise it (update `raiseBudget`) or stop it. Pure and
 * sandbox-safe: the workflow, the server and the CLI read the same schemas.
 */

/** The budgets a run may pause at. A tenant's hourly cap is not one: no run can raise it. */
export const BudgetPauseReason = z.enum(['token_budget', 'cost_budget', 'max_iterations']);
export type BudgetPauseReason = z.infer<typeof BudgetPauseReason>;

/** Largest raise one decision may give, per budget; a larger one is refused (ask again later). */
export const MAX_RAISE_TOKENS = 100_000_000;
export const MAX_RAISE_USD = 10_000;
export const MAX_RAISE_ITERATIONS = 1_000;
/** Longest note or raiser id a raise may carry; longer ones are refused by the validator, cut by the handler. */
export const MAX_RAISE_TEXT_CHARS = 2_000;
/** How long a paused run waits for a raise when `budgetWaitTimeoutMs` is absent: 1 day. */
export const DEFAULT_BUDGET_WAIT_MS = 86_400_000;

/**
 * Who may raise when the run names no `budgetRaiserRoles` (or an empty list): the roles that may
 * run agents (serve's developer and operator, as for schedules), never an end user. A list is a
 * cap, so an empty one does not open raises to everyone.
 */
export const DEFAULT_BUDGET_RAISER_ROLES: readonly string[] = ['developer', 'operator'];

/** The roles that may raise a run's budget: its own list, or the default when it names none. */
export function raiserRolesOf(budgetRaiserRoles: readonly string[] | undefined): string[] {
  return [...(budgetRaiserRoles?.length ? budgetRaiserRoles : DEFAULT_BUDGET_RAISER_ROLES)];
}

/**
 * Why a caller's `budgetRaiserRoles` may not start a run of an agent whose own list is
 * `agentRoles`, or undefined: a caller may narrow who raises (roles among the agent's raisers,
 * DEFAULT_BUDGET_RAISER_ROLES when it names none), never widen it (DESIGN: agent budgets are caps).
 * An empty list names no one and takes the agent's raisers (agent-budget.ts).
 */
export function raiserRolesWidening(
  callerRoles: readonly string[] | undefined,
  agentRoles: readonly string[] | undefined,
): string | undefined {
  const allowed = raiserRolesOf(agentRoles);
  const wider = (callerRoles ?? []).filter((r) => !allowed.includes(r));
  if (wider.length === 0) return undefined;
  return `budgetRaiserRoles may only narrow who raises this agent's budget (${allowed.join(', ')}); ${wider.join(', ')} ${wider.length === 1 ? 'is' : 'are'} not among them. Leave it out, or name some of those roles.`;
}

/** What the run had spent, and on what, when it paused. */
export const BudgetSpent = z.object({
  tokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
  iterations: z.number().int().nonnegative(),
  modelCalls: z.number().int().nonnegative(),
  /** Tool calls by name, most first (the top ten). */
  tools: z.array(z.object({ name: z.string(), calls: z.number().int().positive() })),
});
export type BudgetSpent = z.infer<typeof BudgetSpent>;

/** A paused run's question, as the `status` query shows it. */
export const BudgetPause = z.object({
  /**
   * Names this pause among every pause of the run, across continue-as-new (the reason and the
   * run's time when it paused): a signed raise names it, so it cannot answer a later pause.
   */
  pauseId: z.string().min(1),
  reason: BudgetPauseReason,
  message: z.string(),
  spent: BudgetSpent,
  /** The budgets as they stand (what a raise adds to). */
  budgets: z.object({
    tokenBudget: z.number().optional(),
    costBudgetUsd: z.number().optional(),
    maxIterations: z.number().int().positive(),
  }),
  pausedAt: z.string(),
  expiresAt: z.string(),
  /** Roles allowed to raise (`budgetRaiserRoles`, or DEFAULT_BUDGET_RAISER_ROLES), verified by a signature. */
  raiserRoles: z.array(z.string()),
});
export type BudgetPause = z.infer<typeof BudgetPause>;

/** A person's answer to a paused budget: more tokens, USD or iterations, or stop. */
export const BudgetRaise = z.object({
  tokens: z.number().int().optional(),
  costUsd: z.number().optional(),
  iterations: z.number().int().optional(),
  /** End the run now, as it would have ended without `ask`. */
  stop: z.boolean().optional(),
  by: Person,
  note: z.string().optional(),
  /** The pause this raise answers (BudgetPause.pauseId); required in a signed raise, checked when given. */
  pauseId: z.string().min(1).max(200).optional(),
  /** The server's signature over the decision; required by runs with `signedDecisions`. */
  signature: DecisionSignatureField.optional(),
});
export type BudgetRaise = z.infer<typeof BudgetRaise>;

/**
 * Why a raise cannot answer `pause`, or undefined when it can: a stop, or positive amounts within
 * the limits, for budgets the run has, covering the one it paused at, for this pause, from an
 * allowed role that a verified signature vouches for (`rolesVerified`, decision-roles.ts).
 */
export function raiseProblem(raise: BudgetRaise, pause: BudgetPause, rolesVerified: boolean): string | undefined {
  const { tokens, costUsd, iterations } = raise;
  const amounts = [tokens, costUsd, iterations].filter((a) => a !== undefined);
  if (raise.pauseId !== undefined && raise.pauseId !== pause.pauseId)
    return `This raise answers the pause ${raise.pauseId}; the run is paused at ${pause.pauseId}. Read the pause again and decide on it.`;
  const refused = roleProblem({ ...raise.by, rolesVerified }, pause.raiserRoles, "raise this run's budget");
  if (refused !== undefined) return refused;
  if (raise.stop) return amounts.length > 0 ? 'A stop carries no amounts.' : undefined;
  if (amounts.length === 0) return 'Give tokens, costUsd or iterations to raise, or stop: true.';
  if (amounts.some((a) => !(a! > 0) || !Number.isFinite(a))) return 'Every amount must be a positive number.';
  if ((tokens ?? 0) > MAX_RAISE_TOKENS) return `One raise adds at most ${MAX_RAISE_TOKENS} tokens.`;
  if ((costUsd ?? 0) > MAX_RAISE_USD) return `One raise adds at most $${MAX_RAISE_USD}.`;
  if ((iterations ?? 0) > MAX_RAISE_ITERATIONS) return `One raise adds at most ${MAX_RAISE_ITERATIONS} iterations.`;
  if (tokens !== undefined && pause.budgets.tokenBudget === undefined) return 'This run has no token budget to raise.';
  if (costUsd !== undefined && pause.budgets.costBudgetUsd === undefined)
    return 'This run has no cost budget to raise.';
  const covers = { token_budget: tokens, cost_budget: costUsd, max_iterations: iterations }[pause.reason];
  if (covers === undefined) {
    const flag = { token_budget: 'tokens', cost_budget: 'costUsd', max_iterations: 'iterations' }[pause.reason];
    return `The run paused at its ${pause.reason.replace('_', ' ')}: a raise must include ${flag}.`;
  }
  return undefined;
}

/** The budgets after a raise (amounts read as the handler kept them). */
export function raisedBudgets(
  budgets: BudgetPause['budgets'],
  raise: Pick<BudgetRaise, 'tokens' | 'costUsd' | 'iterations'>,
): BudgetPause['budgets'] {
  const add = (base: number | undefined, more: number | undefined) =>
    base === undefined ? undefined : base + (more !== undefined && more > 0 ? more : 0);
  const tokenBudget = add(budgets.tokenBudget, raise.tokens);
  // Rounded to a millionth of a dollar, as the ledger is, so sums read cleanly in the chain.
  const costBudgetUsd = add(budgets.costBudgetUsd, raise.costUsd);
  return {
    ...(tokenBudget !== undefined ? { tokenBudget } : {}),
    ...(costBudgetUsd !== undefined ? { costBudgetUsd: Math.round(costBudgetUsd * 1e6) / 1e6 } : {}),
    maxIterations: add(budgets.maxIterations, raise.iterations)!,
  };
}

/** The raise in words, for the chain and the audit export: "+50000 tokens, +$0.5". */
export function raiseInWords(raise: Pick<BudgetRaise, 'tokens' | 'costUsd' | 'iterations'>): string {
  const parts = [
    raise.tokens !== undefined ? `+${raise.tokens} tokens` : undefined,
    raise.costUsd !== undefined ? `+$${raise.costUsd}` : undefined,
    raise.iterations !== undefined ? `+${raise.iterations} iterations` : undefined,
  ];
  return parts.filter((p) => p !== undefined).join(', ');
}
