import { describe, expect, it } from 'vitest';
import { zeroUsage, type TokenUsage } from '../../../src/shared';
import type { RunContext } from '../../../src/workflows/core/run-context';
import { takeLlmAnswer } from '../../../src/workflows/tools/llm-tool-call';

/** Only the ledger entry point takeLlmAnswer uses; it records what was counted. */
function ledger() {
  const counted: Array<{ usage: TokenUsage; costUsd: number }> = [];
  const ctx = {
    state: { countToolSpend: (spend: { usage: TokenUsage; costUsd: number }) => counted.push(spend) },
  } as unknown as RunContext;
  return { ctx, counted };
}
const usage = { ...zeroUsage(), inputTokens: 30, outputTokens: 5 };
const answer = (text: string) => ({
  model: 'fast-1',
  alias: 'fast',
  answer: text,
  stopReason: 'end_turn',
  usage,
  costUsd: 0.002,
});

describe('takeLlmAnswer (the workflow side of an llm tool)', () => {
  it('counts the spend, and cuts the answer to the limit (exactly at the limit is whole)', () => {
    const { ctx, counted } = ledger();
    const whole = takeLlmAnswer(ctx, 'c1', { result: answer('x'.repeat(10)), durationMs: 3, truncated: false }, 10);
    expect(whole.shown).toMatchObject({ success: true, result: 'x'.repeat(10) });
    expect(whole.shown.truncated).toBeUndefined();
    expect(whole.meta).toEqual({ model: 'fast-1', usage, costUsd: 0.002 });
    const cut = takeLlmAnswer(ctx, 'c2', { result: answer('x'.repeat(11)), durationMs: 3, truncated: false }, 10);
    expect(cut.shown).toMatchObject({ result: 'x'.repeat(10), truncated: true });
    expect(cut.observation.content).toContain('[truncated: showing 10 of 11 characters]');
    // The cut answer's spend is counted in full, like the whole one's.
    expect(counted.map(({ usage: u, costUsd }) => ({ u, costUsd }))).toEqual([
      { u: usage, costUsd: 0.002 },
      { u: usage, costUsd: 0.002 },
    ]);
  });

  it('refuses a result that does not report model, tokens and cost, and counts nothing', () => {
    const { ctx, counted } = ledger();
    expect(() => takeLlmAnswer(ctx, 'c1', { result: 'just text', durationMs: 1, truncated: false }, 100)).toThrow(
      /did not report the model, tokens and cost/,
    );
    expect(() =>
      takeLlmAnswer(ctx, 'c1', { result: { ...answer('a'), costUsd: -1 }, durationMs: 1, truncated: false }, 100),
    ).toThrow(/did not report/);
    expect(counted).toEqual([]);
  });
});
