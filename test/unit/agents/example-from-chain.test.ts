import { describe, expect, it } from 'vitest';
import { MAX_EXAMPLE_STEPS } from '../../../src/domain/agents/agent-definition';
import { MAX_EXAMPLE_FROM_CHAIN_BYTES, exampleFromChain } from '../../../src/domain/agents/example-from-chain';
import { testChainBuilder } from '../../helpers/test-chain-builder';

const FULL = { level: 'full' } as const;

/** A chain of `calls` lookups, each after a thought, ending with `answer` (none: no synthesis). */
function chainOf(calls: number, answer?: string, observation: (i: number) => unknown = (i) => ({ value: i })) {
  const chain = testChainBuilder();
  for (let i = 0; i < calls; i += 1) {
    chain.iteration = i + 1;
    chain.thinking(`Look up k${i}.`, FULL);
    chain.toolCall(
      { toolType: 'external', toolName: 'lookup', arguments: { key: `k${i}` }, correlationId: `c${i}` },
      FULL,
    );
    chain.toolResult({ correlationId: `c${i}`, success: true, result: observation(i), durationMs: 1 }, FULL);
  }
  if (answer !== undefined) {
    chain.iteration = calls + 1;
    chain.toolCall({ toolType: 'custom', toolName: 'finish', arguments: { result: answer }, correlationId: 'f' }, FULL);
    chain.synthesis(
      { sources: calls ? ['id-3'] : [], conclusion: answer, grounding: 'grounded', terminationReason: 'success' },
      FULL,
    );
  }
  return chain.snapshot();
}

describe('exampleFromChain', () => {
  it('turns a finished run into its task, one trace step per tool call, and its answer', () => {
    expect(exampleFromChain(chainOf(2, 'k0=0, k1=1'))).toEqual({
      example: {
        task: 'task',
        steps: [
          { thought: 'Look up k0.', action: { tool: 'lookup', arguments: { key: 'k0' } }, observation: '{"value":0}' },
          { thought: 'Look up k1.', action: { tool: 'lookup', arguments: { key: 'k1' } }, observation: '{"value":1}' },
        ],
        answer: 'k0=0, k1=1',
      },
    });
  });

  it('takes a run at the step limit and refuses one past it, or one without a final answer', () => {
    expect(exampleFromChain(chainOf(MAX_EXAMPLE_STEPS, 'done'))).toMatchObject({
      example: { steps: expect.any(Array) },
    });
    expect(exampleFromChain(chainOf(MAX_EXAMPLE_STEPS + 1, 'done'))).toEqual({
      refused: `the run took ${MAX_EXAMPLE_STEPS + 1} tool steps; an example shows at most ${MAX_EXAMPLE_STEPS}.`,
    });
    expect(exampleFromChain(chainOf(2))).toEqual({ refused: 'the run did not end with a final answer.' });
  });

  it('cuts long texts, redacts secrets, and stays within its byte limit', () => {
    const key = 'sk-ant-api03-' + 'k'.repeat(60);
    const made = exampleFromChain(chainOf(MAX_EXAMPLE_STEPS, `the key is ${key}`, () => 'x'.repeat(5_000)));
    if (!('example' in made)) throw new Error(made.refused);
    expect(made.example.answer).toContain('[REDACTED]');
    expect(made.example.answer).not.toContain('k'.repeat(60));
    for (const step of made.example.steps!) expect(step.observation.length).toBeLessThanOrEqual(500);
    expect(JSON.stringify(made.example).length).toBeLessThan(MAX_EXAMPLE_FROM_CHAIN_BYTES);

    // Arguments too wide to cut into an example: refused with the size, not shipped cut.
    const wide = testChainBuilder();
    const args = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${i}`, 'v'.repeat(1_000)]));
    wide.toolCall({ toolType: 'external', toolName: 'lookup', arguments: args, correlationId: 'c' }, FULL);
    wide.toolResult({ correlationId: 'c', success: true, result: 1, durationMs: 1 }, FULL);
    wide.synthesis({ sources: ['id-2'], conclusion: 'one', grounding: 'grounded', terminationReason: 'success' }, FULL);
    expect(exampleFromChain(wide.snapshot())).toEqual({
      refused: expect.stringMatching(/^the example would take \d+ bytes; one made from a run takes at most 8192\.$/),
    });
  });
});
