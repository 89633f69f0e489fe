import { describe, expect, it } from 'vitest';
import type { ReasoningChain, ReasoningStep } from '../../../src/domain';
import { compareChains } from '../../../src/domain/compare/chain-comparison';
import { renderComparison } from '../../../src/cli/render/render-comparison';

/** One iteration: a model reply costing `costUsd`, a lookup of abc, and the answer. */
const chain = (id: string, costUsd: number): ReasoningChain =>
  ({
    schemaVersion: 1,
    chainId: id,
    agentName: 'agent',
    task: 't',
    startedAt: '2026-11-29T00:00:00.000Z',
    status: 'completed',
    steps: [
      { type: 'tool_call', toolCall: { toolType: 'llm', toolName: 'm1', arguments: {}, correlationId: 'm' } },
      {
        type: 'tool_result',
        model: 'm1',
        costUsd,
        toolResult: { correlationId: 'm', success: true, result: 'r', durationMs: 1 },
      },
      {
        type: 'tool_call',
        toolCall: { toolType: 'custom', toolName: 'lookup', arguments: { key: 'abc' }, correlationId: 'c' },
      },
      { type: 'tool_result', toolResult: { correlationId: 'c', success: true, result: 30, durationMs: 1 } },
      { type: 'synthesis', synthesis: { sources: [], conclusion: 'It is 30.' } },
    ].map((step, i) => ({
      stepId: `s${i}`,
      stepNumber: i + 1,
      timestamp: '2026-11-29T00:00:00.000Z',
      iteration: 1,
      visibility: { level: 'full' },
      ...step,
    })) as ReasoningStep[],
  }) as ReasoningChain;

describe('thoughtline diff as text', () => {
  it('marks a difference in cost for a view that shows cost', () => {
    const text = renderComparison(compareChains(chain('a', 0.01), chain('b', 0.02)));
    expect(text).toContain('They differ from iteration 1.');
    expect(text).toContain('≠ iteration 1: cost\n');
    expect(text).toContain('  B: model m1 · $0.0200');
  });

  it('calls two runs that differ only in cost the same in a view without spend, and shows no cost', () => {
    const c = compareChains(chain('a', 0.01), chain('b', 0.02), { spend: false });
    expect(c.iterations[0]!.differences).toEqual([]);
    expect(c.a.costUsd).toBeUndefined();
    const text = renderComparison(c);
    expect(text).toContain('Every iteration is the same.');
    expect(text).toContain('= iteration 1: lookup\n= answer: It is 30.');
    expect(text).not.toMatch(/\$|tokens/);
  });
});
