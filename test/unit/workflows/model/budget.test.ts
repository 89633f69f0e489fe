import { describe, expect, it } from 'vitest';
import { zeroUsage, type ModelMessage, type ModelTool, type TokenUsage } from '../../../../src/domain';
import type { Price } from '../../../../src/domain/model/pricing';
import { BudgetExhausted } from '../../../../src/workflows/core/loop-signals';
import {
  affordableMaxTokens,
  estimateInputTokens,
  MIN_OUTPUT_TOKENS,
  type BudgetedCall,
} from '../../../../src/workflows/model/budget';

/** A call whose projected input is exactly `inputTokens` (3 characters per token, rounded up). */
function plannedCall(inputTokens: number, over: Partial<BudgetedCall> = {}): BudgetedCall {
  const messages: ModelMessage[] = [];
  const tools: ModelTool[] = [];
  // '[]' + '[]' are 4 characters; the system prompt makes up the rest.
  const system = 'x'.repeat(inputTokens * 3 - 4);
  return { system, messages, tools, maxTokens: 2048, price: undefined, ...over };
}

const usage = (over: Partial<TokenUsage>): TokenUsage => ({ ...zeroUsage(), ...over });
const spent = (tokens: Partial<TokenUsage> = {}, costUsd = 0) => ({ usage: usage(tokens), costUsd });

/** Runs `fn` and returns the BudgetExhausted it throws (fails when it throws anything else or nothing). */
function exhausted(fn: () => unknown): BudgetExhausted {
  try {
    fn();
  } catch (err) {
    if (err instanceof BudgetExhausted) return err;
    throw err;
  }
  throw new Error('expected BudgetExhausted, but the call was allowed');
}

describe('estimateInputTokens', () => {
  it('counts system, messages and tools as JSON at 3 characters per token, rounded up', () => {
    const messages: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }];
    const tools: ModelTool[] = [{ name: 't', description: 'd', inputSchema: { type: 'object' } }];
    const chars = 'sys'.length + JSON.stringify(messages).length + JSON.stringify(tools).length;
    expect(estimateInputTokens({ system: 'sys', messages, tools })).toBe(Math.ceil(chars / 3));
    expect(estimateInputTokens({ system: 'ab', messages: [], tools: [] })).toBe(2); // 6 characters
    expect(estimateInputTokens({ system: 'abc', messages: [], tools: [] })).toBe(3); // 7 characters, rounded up
    expect(estimateInputTokens(plannedCall(1000))).toBe(1000);
  });
});

describe('affordableMaxTokens', () => {
  it('returns the planned maxTokens when no budget is set, however much was spent', () => {
    expect(affordableMaxTokens(spent({ inputTokens: 10_000_000 }, 1_000), {}, plannedCall(5000))).toBe(2048);
  });

  describe('token budget', () => {
    it('keeps maxTokens when the budget leaves more room than planned', () => {
      expect(affordableMaxTokens(spent({ inputTokens: 1000 }), { tokenBudget: 100_000 }, plannedCall(1000))).toBe(2048);
    });

    it('lowers maxTokens to what is left after the projected input', () => {
      // 10,000 − 6,000 spent − 1,000 projected input = 3,000 left … then 500 tokens more spent.
      expect(
        affordableMaxTokens(
          spent({ inputTokens: 6000 }),
          { tokenBudget: 10_000 },
          plannedCall(1000, { maxTokens: 8000 }),
        ),
      ).toBe(3000);
      expect(
        affordableMaxTokens(
          spent({ inputTokens: 6000, outputTokens: 500 }),
          { tokenBudget: 10_000 },
          plannedCall(1000, { maxTokens: 8000 }),
        ),
      ).toBe(2500);
    });

    it('counts every kind of token already spent (input, output, cache read and write)', () => {
      const all = spent({ inputTokens: 1000, outputTokens: 1000, cacheReadTokens: 1000, cacheWriteTokens: 1000 });
      expect(affordableMaxTokens(all, { tokenBudget: 10_000 }, plannedCall(1000, { maxTokens: 8000 }))).toBe(5000);
    });

    it('allows a call with exactly MIN_OUTPUT_TOKENS of room, and refuses one with a token less', () => {
      expect(MIN_OUTPUT_TOKENS).toBe(256);
      const budget = 5000 + 1000 + MIN_OUTPUT_TOKENS;
      expect(affordableMaxTokens(spent({ inputTokens: 5000 }), { tokenBudget: budget }, plannedCall(1000))).toBe(
        MIN_OUTPUT_TOKENS,
      );
      const err = exhausted(() =>
        affordableMaxTokens(spent({ inputTokens: 5000 }), { tokenBudget: budget - 1 }, plannedCall(1000)),
      );
      expect(err.reason).toBe('token_budget');
      expect(err.message).toBe(
        `Token budget: 5000 of ${budget - 1} tokens spent; the next call needs about 1000 input tokens plus room to answer.`,
      );
    });

    it('refuses when the budget is already spent, or overspent', () => {
      expect(
        exhausted(() => affordableMaxTokens(spent({ inputTokens: 1000 }), { tokenBudget: 1000 }, plannedCall(10)))
          .reason,
      ).toBe('token_budget');
      expect(
        exhausted(() => affordableMaxTokens(spent({ outputTokens: 2000 }), { tokenBudget: 1000 }, plannedCall(10)))
          .reason,
      ).toBe('token_budget');
    });

    it('refuses a first call whose input alone would not leave room to answer', () => {
      expect(exhausted(() => affordableMaxTokens(spent(), { tokenBudget: 1200 }, plannedCall(1000))).reason).toBe(
        'token_budget',
      );
      expect(affordableMaxTokens(spent(), { tokenBudget: 1256 }, plannedCall(1000))).toBe(256);
    });
  });

  describe('cost budget', () => {
    // $10 per million input tokens, $20 per million output: 1,000 input tokens cost $0.01,
    // and every $0.00002 buys one output token.
    const price: Price = { input: 10, output: 20, cacheRead: 1, cacheWrite: 10 };

    it('lowers maxTokens to the output the money left can buy after the projected input', () => {
      // $0.05 left − $0.01 input = $0.04 → 2,000 output tokens.
      expect(
        affordableMaxTokens(spent({}, 0.05), { costBudgetUsd: 0.1 }, plannedCall(1000, { price, maxTokens: 4096 })),
      ).toBe(2000);
      // Plenty left: the planned value stands.
      expect(
        affordableMaxTokens(spent({}, 0), { costBudgetUsd: 10 }, plannedCall(1000, { price, maxTokens: 4096 })),
      ).toBe(4096);
    });

    it('prices the input at the dearer of input and cache write', () => {
      const dearWrite: Price = { ...price, cacheWrite: 30 };
      // $0.05 left − 1,000 × $30/M = $0.02 → 1,000 output tokens.
      expect(
        affordableMaxTokens(
          spent({}, 0.05),
          { costBudgetUsd: 0.1 },
          plannedCall(1000, { price: dearWrite, maxTokens: 4096 }),
        ),
      ).toBe(1000);
    });

    it('allows exactly MIN_OUTPUT_TOKENS of output, and refuses less', () => {
      // $0.01 input + 256 × $0.00002 = $0.01512.
      expect(affordableMaxTokens(spent({}, 0), { costBudgetUsd: 0.01512 }, plannedCall(1000, { price }))).toBe(256);
      const err = exhausted(() =>
        affordableMaxTokens(spent({}, 0.1), { costBudgetUsd: 0.115 }, plannedCall(1000, { price })),
      );
      expect(err.reason).toBe('cost_budget');
      expect(err.message).toBe(
        'Cost budget: $0.100000 of $0.115 spent; the next call would cost about $0.015120 or more.',
      );
    });

    it('with an unknown price checks only what was already spent', () => {
      // Nothing can be projected: any money left lets the call go ahead at its planned size.
      expect(affordableMaxTokens(spent({}, 0.099), { costBudgetUsd: 0.1 }, plannedCall(1000))).toBe(2048);
      const err = exhausted(() => affordableMaxTokens(spent({}, 0.1), { costBudgetUsd: 0.1 }, plannedCall(1000)));
      expect(err).toMatchObject({
        reason: 'cost_budget',
        message: 'Cost budget: $0.100000 of $0.1 spent; the next call would cost about $0.000000 or more.',
      });
      expect(
        exhausted(() => affordableMaxTokens(spent({}, 0.2), { costBudgetUsd: 0.1 }, plannedCall(1000))).reason,
      ).toBe('cost_budget');
    });

    it('with free output still refuses a call whose input alone would cross the budget', () => {
      const inputOnly: Price = { input: 10, output: 0, cacheRead: 0, cacheWrite: 0 };
      // Input of 1,000 tokens costs $0.01, but only $0.005 is left.
      const err = exhausted(() =>
        affordableMaxTokens(spent({}, 0.095), { costBudgetUsd: 0.1 }, plannedCall(1000, { price: inputOnly })),
      );
      expect(err.reason).toBe('cost_budget');
      // With the input affordable, output is free: the planned value stands.
      expect(
        affordableMaxTokens(spent({}, 0.05), { costBudgetUsd: 0.1 }, plannedCall(1000, { price: inputOnly })),
      ).toBe(2048);
    });
  });

  it('with both budgets takes the smaller allowance, and names the budget that ran out', () => {
    const price: Price = { input: 10, output: 20, cacheRead: 1, cacheWrite: 10 };
    const call = plannedCall(1000, { price, maxTokens: 8000 });
    // Tokens leave 3,000; money leaves $0.05 − $0.01 = 2,000 output tokens.
    expect(
      affordableMaxTokens(spent({ inputTokens: 6000 }, 0.05), { tokenBudget: 10_000, costBudgetUsd: 0.1 }, call),
    ).toBe(2000);
    // Tokens leave 1,000; money leaves 2,000.
    expect(
      affordableMaxTokens(spent({ inputTokens: 8000 }, 0.05), { tokenBudget: 10_000, costBudgetUsd: 0.1 }, call),
    ).toBe(1000);
    expect(
      exhausted(() =>
        affordableMaxTokens(spent({ inputTokens: 8900 }, 0.05), { tokenBudget: 10_000, costBudgetUsd: 0.1 }, call),
      ).reason,
    ).toBe('token_budget');
    expect(
      exhausted(() =>
        affordableMaxTokens(spent({ inputTokens: 6000 }, 0.099), { tokenBudget: 10_000, costBudgetUsd: 0.1 }, call),
      ).reason,
    ).toBe('cost_budget');
  });
});
