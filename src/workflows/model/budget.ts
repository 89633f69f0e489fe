import type { ModelMessage, ModelTool, TokenUsage } from '../../domain';
import { totalTokens } from '../../domain';
import type { Price } from '../../domain/model/pricing';
import { messagesJsonLength } from '../../domain/model/message-json';
import { BudgetExhausted } from '../core/loop-signals';

/** Deliberately high: 3 characters per token (English prose averages about 4). */
const CHARS_PER_TOKEN = 3;
/** A call that could not write at least this much is not worth starting. */
export const MIN_OUTPUT_TOKENS = 256;

export interface Budgets {
  tokenBudget?: number | undefined;
  costBudgetUsd?: number | undefined;
}

/** A model call about to be made, as the budget check sees it. */
export interface BudgetedCall {
  system: string;
  messages: readonly ModelMessage[];
  tools: readonly ModelTool[];
  maxTokens: number;
  /** Known price of the model; without one only what was already spent is checked. */
  price: Price | undefined;
}

/** What the ledger has spent so far (input, output, cache tokens and USD). */
export interface Spent {
  usage: TokenUsage;
  costUsd: number;
}

export function estimateInputTokens(call: Pick<BudgetedCall, 'system' | 'messages' | 'tools'>): number {
  const chars = call.system.length + messagesJsonLength(call.messages) + JSON.stringify(call.tools).length;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/**
 * The `max_tokens` the run can afford for this call: the planned value, lowered to what is left
 * after the projected input. Throws BudgetExhausted when even MIN_OUTPUT_TOKENS would cross a
 * budget, so the call is never started. Input is priced at the dearer of plain input and cache
 * write, as either may be billed. `input`: the call's estimateInputTokens, when the caller has it.
 */
export function affordableMaxTokens(
  spent: Spent,
  budgets: Budgets,
  call: BudgetedCall,
  input = estimateInputTokens(call),
): number {
  let maxTokens = call.maxTokens;
  if (budgets.tokenBudget !== undefined) {
    const left = budgets.tokenBudget - totalTokens(spent.usage);
    if (left - input < MIN_OUTPUT_TOKENS) {
      throw new BudgetExhausted(
        'token_budget',
        `Token budget: ${totalTokens(spent.usage)} of ${budgets.tokenBudget} tokens spent; the next call needs about ${input} input tokens plus room to answer.`,
      );
    }
    maxTokens = Math.min(maxTokens, left - input);
  }
  if (budgets.costBudgetUsd !== undefined) {
    const left = budgets.costBudgetUsd - spent.costUsd;
    const price = call.price;
    const inputUsd = price ? (input * Math.max(price.input, price.cacheWrite)) / 1e6 : 0;
    const outputFits =
      price && price.output > 0
        ? Math.floor(((left - inputUsd) * 1e6) / price.output)
        : left - inputUsd > 0
          ? maxTokens
          : 0;
    if (outputFits < MIN_OUTPUT_TOKENS) {
      throw new BudgetExhausted(
        'cost_budget',
        `Cost budget: $${spent.costUsd.toFixed(6)} of $${budgets.costBudgetUsd} spent; the next call would cost about $${(inputUsd + ((price?.output ?? 0) * MIN_OUTPUT_TOKENS) / 1e6).toFixed(6)} or more.`,
      );
    }
    maxTokens = Math.min(maxTokens, outputFits);
  }
  return maxTokens;
}
