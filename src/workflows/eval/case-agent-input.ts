import type { AgentInputInit } from '../../domain';
import type { CaseLimits, EvalCase } from '../../domain/evaluation/eval-case';
import type { EvalVariant } from '../../domain/evaluation/evaluation-input';
import type { BudgetGrant } from './eval-budget';

/**
 * The run's own cost and token limits before the evaluation's budget: the case's `limits`, else
 * its `input`'s, else the base input's. The budget's grant is never larger (eval-budget.ts).
 */
export function caseBudgetLimits(
  baseInput: Record<string, unknown> | undefined,
  c: EvalCase,
): Pick<CaseLimits, 'costBudgetUsd' | 'tokenBudget'> {
  const pick = (key: 'costBudgetUsd' | 'tokenBudget'): number | undefined => {
    for (const value of [c.limits?.[key], c.input?.[key], baseInput?.[key]])
      if (typeof value === 'number' && value > 0) return value;
    return undefined;
  };
  const costBudgetUsd = pick('costBudgetUsd');
  const tokenBudget = pick('tokenBudget');
  return {
    ...(costBudgetUsd !== undefined ? { costBudgetUsd } : {}),
    ...(tokenBudget !== undefined ? { tokenBudget } : {}),
  };
}

/**
 * The agent run's input for one unit, each layer over the one before: the evaluation's
 * `baseInput`, then the variant (model, agent, strategy), then the case (its `input` fields, its
 * task with the context put before it, its limits), then the budget's grant, which is already the
 * smaller of caseBudgetLimits and the unit's share (eval-budget.ts). Pure.
 */
export function caseAgentInput(
  baseInput: Record<string, unknown> | undefined,
  variant: EvalVariant,
  c: EvalCase,
  grant: BudgetGrant,
): AgentInputInit {
  const { maxIterations, runTimeoutMs, costBudgetUsd, tokenBudget } = c.limits ?? {};
  return {
    ...baseInput,
    ...(variant.model ? { model: variant.model } : {}),
    ...(variant.agent ? { agent: variant.agent } : {}),
    ...(variant.strategy ? { strategy: variant.strategy } : {}),
    ...c.input,
    // A recorded case answers from its recording: the worker's `replay` provider, by case id.
    ...(c.replay ? { model: { provider: 'replay', model: c.id } } : {}),
    task: c.context ? `Context:\n${c.context}\n\nTask:\n${c.task}` : c.task,
    ...(maxIterations !== undefined ? { maxIterations } : {}),
    ...(runTimeoutMs !== undefined ? { runTimeoutMs } : {}),
    ...(costBudgetUsd !== undefined ? { costBudgetUsd } : {}),
    ...(tokenBudget !== undefined ? { tokenBudget } : {}),
    ...grant,
  } as AgentInputInit;
}
