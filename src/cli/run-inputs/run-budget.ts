import type { AgentInputInit } from '../../domain';
import type { CommandLine } from '../spec/command-line';
import { positiveInteger } from '../spec/flags';
import { UsageError } from '../spec/usage-error';

/** What `--on-budget` takes: the input's `onBudget` values, by the same names (docs/budgets.md). */
const ON_BUDGET = ['end', 'ask'] as const;

/**
 * `run --budget-tokens N --budget-usd X --on-budget end|ask`: the run's `tokenBudget`,
 * `costBudgetUsd` and `onBudget`, checked here so a bad value is a usage mistake naming its flag.
 * Absent flags add nothing: the run's input stays as it was without them.
 */
export function runBudget(line: CommandLine): Pick<AgentInputInit, 'tokenBudget' | 'costBudgetUsd' | 'onBudget'> {
  const tokens = positiveInteger(line, 'budget-tokens');
  const usd = line.text('budget-usd');
  if (usd !== undefined && !(Number(usd) > 0 && Number.isFinite(Number(usd))))
    throw new UsageError(`--budget-usd takes a positive amount of US dollars, e.g. 2.50, not "${usd}".`);
  const on = line.text('on-budget');
  if (on !== undefined && !(ON_BUDGET as readonly string[]).includes(on))
    throw new UsageError(
      `--on-budget takes end (the run ends at its budget) or ask (it waits for raise-budget), not "${on}".`,
    );
  return {
    ...(tokens !== undefined ? { tokenBudget: tokens } : {}),
    ...(usd !== undefined ? { costBudgetUsd: Number(usd) } : {}),
    ...(on !== undefined ? { onBudget: on as (typeof ON_BUDGET)[number] } : {}),
  };
}
