import { describe, expect, it } from 'vitest';
import type { ChainComparison, IterationFacts } from '../../../src/domain/compare/chain-comparison';
import { renderComparison } from '../../../src/cli/render/render-comparison';

const facts = (iteration: number, costUsd: number): IterationFacts => ({
  iteration,
  thoughts: [],
  calls: [{ tool: 'lookup', arguments: '{"key":"abc"}', result: '30' }],
  costUsd,
  tokens: 10,
  models: ['m1'],
});
const run = (runId: string) => ({
  runId,
  agentName: 'agent',
  task: 't',
  status: 'completed' as const,
  answer: 'It is 30.',
  iterations: 1,
  costUsd: 0.01,
  tokens: 10,
});

describe('thoughtline diff as text', () => {
  const costOnly: ChainComparison = {
    a: run('a'),
    b: run('b'),
    iterations: [{ iteration: 1, a: facts(1, 0.01), b: facts(1, 0.02), differences: ['cost'] }],
    answerDiffers: false,
    firstDifference: 1,
  };

  it('marks a difference in cost for a view that shows cost', () => {
    const text = renderComparison(costOnly, true);
    expect(text).toContain('They differ from iteration 1.');
    expect(text).toContain('≠ iteration 1: cost\n');
    expect(text).toContain('  B: model m1 · $0.0200');
  });

  it("calls two runs that differ only in cost the same in the end user's view, which has no cost", () => {
    const text = renderComparison(costOnly, false);
    expect(text).toContain('Every iteration is the same.');
    expect(text).toContain('= iteration 1: lookup\n= answer: It is 30.');
    expect(text).not.toMatch(/\$/);
  });
});
