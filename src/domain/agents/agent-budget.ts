import { z } from 'zod';

/** Most roles an agent names as budget raisers (as a run's `budgetRaiserRoles`). */
export const MAX_BUDGET_RAISER_ROLES = 20;

/**
 * An agent's budget settings (docs/budgets.md, "Per agent"): the run options of the same names,
 * applied to every run of the agent whatever door starts it, where the run's own input leaves them
 * out. The amounts are defaults a caller who may set a run's budgets still may set; the raiser
 * roles are a cap a caller may only narrow (budget-pause.ts raiserRolesWidening). `maxIterations` is not
 * here: every run's input has one (10 unless set), so an agent's could never tell it was unset.
 * Strict, so a misspelt setting is refused when the agent is defined rather than silently ignored.
 */
export const AgentBudget = z.strictObject({
  tokenBudget: z.number().int().positive().optional(),
  costBudgetUsd: z.number().positive().optional(),
  onBudget: z.enum(['end', 'ask']).optional(),
  budgetWaitTimeoutMs: z.number().int().positive().optional(),
  budgetRaiserRoles: z.array(z.string().min(1).max(128)).max(MAX_BUDGET_RAISER_ROLES).optional(),
});
export type AgentBudget = z.infer<typeof AgentBudget>;

/** The run settings an agent's budget supplies. */
export type BudgetSettings = AgentBudget;

/**
 * The settings a run takes from its agent's budget: each one the run's own input leaves out. A
 * sub-agent's run takes none: its budget is carved from its parent's, and a tree is asked once, at
 * the top. Pure; an agent without a budget adds nothing, so such runs keep their input as it was.
 */
export function agentBudgetDefaults(
  run: BudgetSettings & { delegation?: unknown },
  budget: AgentBudget | undefined,
): BudgetSettings {
  if (!budget || run.delegation !== undefined) return {};
  const out: BudgetSettings = {};
  if (run.tokenBudget === undefined && budget.tokenBudget !== undefined) out.tokenBudget = budget.tokenBudget;
  if (run.costBudgetUsd === undefined && budget.costBudgetUsd !== undefined) out.costBudgetUsd = budget.costBudgetUsd;
  if (run.onBudget === undefined && budget.onBudget !== undefined) out.onBudget = budget.onBudget;
  if (run.budgetWaitTimeoutMs === undefined && budget.budgetWaitTimeoutMs !== undefined)
    out.budgetWaitTimeoutMs = budget.budgetWaitTimeoutMs;
  // An empty list names no one: the agent's raisers stand (a caller never widens them, budget-pause.ts).
  if (!run.budgetRaiserRoles?.length && budget.budgetRaiserRoles !== undefined)
    out.budgetRaiserRoles = [...budget.budgetRaiserRoles];
  return out;
}
