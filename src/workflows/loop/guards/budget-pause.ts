/**
 * "Pause and raise" (`onBudget: 'ask'`): at its token, cost or iteration budget a run waits for a
 * person to raise it instead of ending. Costs one timer and, when answered, one update; the
 * search attribute says `awaiting_budget` meanwhile. Deterministic, sandbox side.
 */
import {
  DEFAULT_BUDGET_WAIT_MS,
  raisedBudgets,
  raiserRolesOf,
  raiseInWords,
  totalTokens,
  type BudgetPause,
  type BudgetPauseReason,
  type BudgetSpent,
} from '../../../domain';
import { rolesInWords } from '../../../domain/approval/decision-roles';
import type { RunContext } from '../../core/state/run-context';
import type { BudgetDesk } from '../../people/budget-desk';
import { inWords } from '../../people/wait-in-words';

/** Tools named in a pause's "spent on what". */
const TOP_TOOLS = 10;

/**
 * With `onBudget: 'ask'`, pauses the run and returns true once a person raised the budget (the
 * run's input now carries the raised budgets, so continue-as-new and sub-budgets see them);
 * false when the run ends as it would have: `end` (the default), a stop, or no answer in time.
 */
export async function mayRaise(
  ctx: RunContext,
  desk: BudgetDesk,
  reason: BudgetPauseReason,
  message: string,
): Promise<boolean> {
  const { input, chain, workflowId } = ctx;
  if (input.onBudget !== 'ask') return false;
  const timeoutMs = input.budgetWaitTimeoutMs ?? DEFAULT_BUDGET_WAIT_MS;
  const pause = budgetPause(ctx, reason, message, timeoutMs);
  const flag = { token_budget: '--tokens N', cost_budget: '--cost USD', max_iterations: '--iterations N' }[reason];
  chain.thinking(
    `Paused at the budget: ${message} Waiting up to ${inWords(timeoutMs)} for a raise: thoughtline raise-budget ${workflowId} ${flag} (or --stop).`,
    { level: 'full' },
  );
  chain.setStatus('waiting');
  const raise = await desk.ask(pause, timeoutMs, () => ctx.progress.publish());
  chain.setStatus('thinking');
  if (!raise) {
    chain.thinking(`Nobody raised the budget within ${inWords(timeoutMs)}; the run ends at it.`, { level: 'full' });
    return false;
  }
  const by = raise.by.id;
  // Roles named without a verified signature read "(claimed: ops, not verified)" (decision-roles.ts).
  const roles = rolesInWords({ roles: raise.by.roles, rolesVerified: raise.rolesVerified });
  const note = raise.note ? `: ${raise.note}` : '';
  if (raise.stop) {
    chain.thinking(`Stopped at the budget by ${by}${roles}${note}.`, { level: 'full' }, { kind: 'budget', by });
    return false;
  }
  const budgets = raisedBudgets(pause.budgets, raise);
  ctx.input = { ...ctx.input, ...budgets };
  chain.thinking(
    `Budget raised by ${by}${roles}: ${raiseInWords(raise)} (now ${budgetsInWords(budgets)})${note}.`,
    { level: 'full' },
    { kind: 'budget', by },
  );
  return true;
}

function budgetPause(ctx: RunContext, reason: BudgetPauseReason, message: string, timeoutMs: number): BudgetPause {
  const { input } = ctx;
  const now = Date.now();
  const pausedAt = new Date(now).toISOString();
  return {
    // The reason and the run's clock: unique across the run's pauses, continue-as-new included.
    pauseId: `${reason}@${pausedAt}`,
    reason,
    message,
    spent: spentSoFar(ctx),
    budgets: {
      ...(input.tokenBudget !== undefined ? { tokenBudget: input.tokenBudget } : {}),
      ...(input.costBudgetUsd !== undefined ? { costBudgetUsd: input.costBudgetUsd } : {}),
      maxIterations: input.maxIterations,
    },
    pausedAt,
    expiresAt: new Date(now + timeoutMs).toISOString(),
    raiserRoles: raiserRolesOf(input.budgetRaiserRoles),
  };
}

/** What the run spent and on what: the ledger, and its tool calls by name from the chain it holds. */
function spentSoFar({ state, chain }: RunContext): BudgetSpent {
  const calls = new Map<string, number>();
  for (const step of chain.steps) {
    if (step.type !== 'tool_call' || step.toolCall.toolType === 'llm') continue;
    calls.set(step.toolCall.toolName, (calls.get(step.toolCall.toolName) ?? 0) + 1);
  }
  const tools = [...calls]
    .map(([name, n]) => ({ name, calls: n }))
    .sort((a, b) => b.calls - a.calls || (a.name < b.name ? -1 : 1))
    .slice(0, TOP_TOOLS);
  return {
    tokens: totalTokens(state.usage),
    costUsd: state.costUsd,
    iterations: state.iteration,
    modelCalls: state.modelCalls,
    tools,
  };
}

function budgetsInWords(b: BudgetPause['budgets']): string {
  const parts = [
    b.tokenBudget !== undefined ? `${b.tokenBudget} tokens` : undefined,
    b.costBudgetUsd !== undefined ? `$${b.costBudgetUsd}` : undefined,
    `${b.maxIterations} iterations`,
  ];
  return parts.filter((p) => p !== undefined).join(', ');
}
