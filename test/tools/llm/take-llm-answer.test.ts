import { describe, expect, it } from 'vitest';
import { zeroUsage, type TokenUsage } from '../../../src/domain';
import type { RunContext } from '../../../src/workflows/core/state/run-context';
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

  it('a consensus: counts every answer into the ledger, one llm step pair per model, and the agreement as the result', () => {
    const { ctx, counted } = ledger();
    const consensus = {
      mode: 'consensus',
      answers: [
        { ...answer('4'), alias: 'fast', model: 'fast-1', durationMs: 4 },
        { ...answer('4.'), alias: 'strong', model: 'strong-1', costUsd: 0.01 },
        { alias: 'local', model: 'local-1', error: 'ModelUnavailable: down' },
      ],
      agreement: 2 / 3,
      unanimous: false,
      majority: '4',
      groups: [['fast', 'strong']],
    };
    const taken = takeLlmAnswer(ctx, 'c1', { result: consensus, durationMs: 9, truncated: false }, 100);
    expect(counted.map((c) => c.costUsd)).toEqual([0.002, 0.01]);
    expect(taken.meta).toBeUndefined();
    expect(taken.calls?.map((c) => [c.call.correlationId, c.call.toolType, c.result.success, c.meta])).toEqual([
      ['c1/fast', 'llm', true, { model: 'fast-1', usage, costUsd: 0.002 }],
      ['c1/strong', 'llm', true, { model: 'strong-1', usage, costUsd: 0.01 }],
      ['c1/local', 'llm', false, { model: 'local-1' }],
    ]);
    expect(taken.calls?.[2]?.result.error).toBe('ModelUnavailable: down');
    // Each model's own time when it has one, else the whole call's.
    expect(taken.calls?.map((c) => c.result.durationMs)).toEqual([4, 9, 9]);
    expect(taken.shown).toMatchObject({
      correlationId: 'c1',
      success: true,
      result: {
        agreement: 2 / 3,
        unanimous: false,
        majority: '4',
        answers: [
          { model: 'fast', answer: '4' },
          { model: 'strong', answer: '4.' },
          { model: 'local', error: 'ModelUnavailable: down' },
        ],
      },
    });
    expect(JSON.parse(taken.observation.content)).toEqual(taken.shown.result);
  });

  it("a consensus cuts each answer to an equal share of the call's limit", () => {
    const { ctx } = ledger();
    const consensus = {
      mode: 'consensus',
      answers: [
        { ...answer('x'.repeat(30)), alias: 'a' },
        { ...answer('y'.repeat(30)), alias: 'b' },
      ],
      agreement: 0.5,
      unanimous: false,
      groups: [['a'], ['b']],
    };
    const taken = takeLlmAnswer(ctx, 'c1', { result: consensus, durationMs: 1, truncated: false }, 20);
    expect(taken.shown.truncated).toBe(true);
    expect(taken.calls?.map((c) => c.result.result)).toEqual(['x'.repeat(10), 'y'.repeat(10)]);
  });
});
