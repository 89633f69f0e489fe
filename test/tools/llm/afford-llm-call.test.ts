import { describe, expect, it } from 'vitest';
import { zeroUsage, type ToolSpec } from '../../../src/domain';
import type { RunContext } from '../../../src/workflows/core/state/run-context';
import { estimateInputTokens } from '../../../src/workflows/model/budget';
import { affordLlmCall } from '../../../src/workflows/tools/llm-tool-call';

/** Only what affordLlmCall reads: the budgets, what is spent, and where it holds tokens. */
function run(tokenBudget: number) {
  const held: Array<{ tokenBudget?: number }> = [];
  const ctx = {
    input: { tokenBudget },
    state: {
      committed: () => ({ usage: zeroUsage(), costUsd: 0 }),
      reserve: (h: { tokenBudget?: number }) => held.push(h),
    },
  } as unknown as RunContext;
  return { ctx, held };
}
const spec = {
  name: 'ask_model',
  type: 'llm',
  inputSchema: { type: 'object', properties: { maxTokens: { type: 'integer', maximum: 1_000 } } },
} as unknown as ToolSpec;
const prompt = 'What is 2+2?';
const input = estimateInputTokens({
  system: '',
  messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
  tools: [],
});

describe('affordLlmCall: a consensus is as many calls as it asks models', () => {
  it('holds the prompt and the answer room once per model', async () => {
    const { ctx, held } = run(1_000_000);
    const one = await affordLlmCall(ctx, spec, { model: 'a', prompt });
    expect(one).toMatchObject({ calls: 1, hold: { tokenBudget: input + 1_000 } });
    const three = await affordLlmCall(ctx, spec, { models: ['a', 'b', 'c'], mode: 'consensus', prompt });
    expect(three).toMatchObject({ calls: 3, hold: { tokenBudget: 3 * (input + 1_000) } });
    expect(three.args).not.toHaveProperty('maxTokens');
    expect(held).toHaveLength(2);
  });

  it('shares what the token budget still affords equally: maxTokens is lowered per model', async () => {
    const { ctx } = run(3 * input + 1_500);
    const three = await affordLlmCall(ctx, spec, { models: ['a', 'b', 'c'], mode: 'consensus', prompt });
    expect(three.args).toMatchObject({ maxTokens: 500 });
    expect(three.hold.tokenBudget).toBe(3 * input + 1_500);
    // The same budget affords one model its whole ceiling.
    expect((await affordLlmCall(run(3 * input + 1_500).ctx, spec, { model: 'a', prompt })).args).not.toHaveProperty(
      'maxTokens',
    );
  });
});
