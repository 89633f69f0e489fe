import { describe, expect, it } from 'vitest';
import { reactTrace } from '../../src/domain';
import { testChainBuilder } from '../helpers/test-chain-builder';

describe('reactTrace', () => {
  it('reads a chain as seed 001’s trace: thought, action and observation per action, then the answer', () => {
    const chain = testChainBuilder();
    chain.iteration = 1;
    chain.thinking('Alpha first.', { level: 'full' });
    chain.toolCall({ toolType: 'llm', toolName: 'claude', arguments: {}, correlationId: 'm1' }, { level: 'full' });
    chain.toolCall(
      { toolType: 'external', toolName: 'lookup', arguments: { key: 'a' }, correlationId: 'c1' },
      { level: 'full' },
    );
    chain.toolResult({ correlationId: 'c1', success: true, result: { value: 50 }, durationMs: 1 }, { level: 'full' });
    chain.iteration = 2;
    chain.toolCall(
      { toolType: 'external', toolName: 'lookup', arguments: { key: 'b' }, correlationId: 'c2' },
      { level: 'full' },
    );
    chain.toolResult(
      { correlationId: 'c2', success: false, result: null, error: 'down', durationMs: 1 },
      { level: 'full' },
    );
    chain.iteration = 3;
    chain.thinking('Enough.', { level: 'full' });
    chain.toolCall(
      { toolType: 'custom', toolName: 'finish', arguments: { result: 'a is 50' }, correlationId: 'f' },
      { level: 'full' },
    );
    chain.synthesis({ sources: [], conclusion: 'a is 50' }, { level: 'full' });

    expect(reactTrace(chain.snapshot()).map(({ timestamp: _t, ...step }) => step)).toEqual([
      {
        iteration: 1,
        thought: 'Alpha first.',
        action: 'lookup {"key":"a"}',
        observation: '{"value":50}',
        call: { tool: 'lookup', arguments: { key: 'a' } },
      },
      {
        iteration: 2,
        thought: '',
        action: 'lookup {"key":"b"}',
        observation: 'Error: down',
        call: { tool: 'lookup', arguments: { key: 'b' } },
      },
      { iteration: 3, thought: 'Enough.', action: 'Final Answer', observation: 'a is 50' },
    ]);
  });
});
