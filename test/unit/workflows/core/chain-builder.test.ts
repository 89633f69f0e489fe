import { describe, expect, it } from 'vitest';
import { ReasoningChain } from '../../../../src/domain';
import { testChainBuilder } from '../../../helpers/test-chain-builder';

describe('ChainBuilder', () => {
  it('numbers and stamps steps in order, and the chain parses against its schema', () => {
    const chain = testChainBuilder();
    chain.iteration = 1;
    chain.thinking('look it up', { level: 'full' });
    chain.toolCall(
      { toolType: 'external', toolName: 'w', arguments: { q: 1 }, correlationId: 'c1' },
      { level: 'full' },
    );
    const result = chain.toolResult(
      { correlationId: 'c1', success: true, result: { t: 18 }, durationMs: 5 },
      { level: 'full' },
    );
    chain.synthesis({ sources: chain.observationSources(), conclusion: 'done' }, { level: 'full' });
    const snap = chain.snapshot();
    expect(snap.steps.map((s) => [s.stepNumber, s.type, s.iteration])).toEqual([
      [1, 'thinking', 1],
      [2, 'tool_call', 1],
      [3, 'tool_result', 1],
      [4, 'synthesis', 1],
    ]);
    expect(snap.steps[3]).toMatchObject({ synthesis: { sources: [result.stepId] } });
    expect(new Set(snap.steps.map((s) => s.stepId)).size).toBe(4);
    expect(() => ReasoningChain.parse(snap)).not.toThrow();
  });

  it('leaves model replies and failed tools out of the synthesis sources', () => {
    const chain = testChainBuilder();
    chain.toolResult(
      { correlationId: 'm', success: true, result: {}, durationMs: 1 },
      { level: 'full' },
      { model: 'claude' },
    );
    chain.toolResult(
      { correlationId: 'x', success: false, result: null, error: 'boom', durationMs: 1 },
      { level: 'full' },
    );
    const ok = chain.toolResult({ correlationId: 'y', success: true, result: 1, durationMs: 1 }, { level: 'full' });
    expect(chain.observationSources()).toEqual([ok.stepId]);
  });

  it('gives snapshots that later steps do not change', () => {
    const chain = testChainBuilder();
    const before = chain.snapshot();
    chain.thinking('x', { level: 'full' });
    expect(before.steps).toHaveLength(0);
    chain.setStatus('completed');
    expect(chain.snapshot().completedAt).toBeDefined();
  });
});
