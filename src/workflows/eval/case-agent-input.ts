import type { AgentInputInit } from '../../shared';
import type { EvalCase } from '../../shared/eval/eval-case';
import type { EvalVariant } from '../../shared/eval/evaluation-input';
import type { BudgetGrant } from './eval-budget';

/**
 * The agent run's input for one unit, each layer over the one before: the evaluation's
 * `baseInput`, then the variant (model, agent, strategy), then the case (its `input` fields, its
 * task with the context put before it, its limits), then the budget's grant, which is already the
 * smaller of the case's limit and the unit's share (eval-budget.ts). Pure.
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
    task: c.context ? `Context:\n${c.context}\n\nTask:\n${c.task}` : c.task,
    ...(maxIterations !== undefined ? { maxIterations } : {}),
    ...(runTimeoutMs !== undefined ? { runTimeoutMs } : {}),
    ...(costBudgetUsd !== undefined ? { costBudgetUsd } : {}),
    ...(tokenBudget !== undefined ? { tokenBudget } : {}),
    ...grant,
  } as AgentInputInit;
}
