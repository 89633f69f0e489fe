import { describe, expect, it } from 'vitest';
import type { ReasoningStep } from '../../src/domain';
import { callPurpose, modelTimes } from '../../src/domain/chain/model-times';
import { stepOf } from '../helpers/chain-helpers';

let n = 0;
/** A run's own model call (the arguments openModelCall records) and its result, in `iteration`. */
function llm(id: string, iteration: number, ms: number, extra: Record<string, unknown> = {}): ReasoningStep[] {
  const args = { provider: 'scripted', maxTokens: 100, messages: 1, tools: [], toolChoice: 'auto', ...extra };
  return [
    {
      ...stepOf(++n, {
        type: 'tool_call',
        toolCall: { toolType: 'llm', toolName: 'm', arguments: args, correlationId: id },
      }),
      iteration,
    },
    {
      ...stepOf(++n, {
        type: 'tool_result',
        toolResult: { correlationId: id, success: true, result: {}, durationMs: ms },
      }),
      iteration,
    },
  ] as ReasoningStep[];
}

describe('planning and reasoning times from the chain', () => {
  it('adds the planner calls and the turns per iteration, by purpose', () => {
    const steps = [
      ...llm('p1', 0, 900, { purpose: 'plan', note: 'plan' }),
      ...llm('p2', 0, 400, { purpose: 'plan', note: 'plan repair' }),
      ...llm('t1', 1, 300, { purpose: 'turn' }),
      ...llm('t2', 2, 500, { purpose: 'turn' }),
      // A retry within iteration 2's turn counts for that iteration.
      ...llm('t3', 2, 700, { purpose: 'turn', note: 'max_tokens: retried with 200' }),
      ...llm('r1', 2, 5_000, { purpose: 'reflection', note: 'reflection at iteration 2' }),
      ...llm('v1', 3, 5_000, { purpose: 'verdict', note: 'observer' }),
      ...llm('t4', 3, 100, { purpose: 'turn' }),
    ];
    expect(modelTimes(steps)).toEqual({
      planningMs: 1_300,
      planningCalls: 2,
      reasoningMs: 1_600,
      reasoningIterations: 3,
      reasoningPerIterationMs: 533,
      slowestIterationMs: 1_200,
    });
  });

  it("reads chains recorded before purposes from the planner's notes; a model tool's calls are not the run's", () => {
    expect(callPurpose({ messages: 1, toolChoice: 'none', note: 'replan' })).toBe('plan');
    expect(callPurpose({ messages: 3, toolChoice: 'auto' })).toBe('turn');
    expect(callPurpose({ messages: 3, toolChoice: 'auto', note: 'fallback from a after: down' })).toBeUndefined();
    // ask_model's own arguments, and a consensus answer: not counted, even with a "purpose" of their own.
    expect(callPurpose({ prompt: 'hi', purpose: 'plan' })).toBeUndefined();
    expect(callPurpose({ model: 'fast', consensusOf: 'c1' })).toBeUndefined();
    const open = llm('t9', 1, 0, { purpose: 'turn' }).slice(0, 1);
    expect(modelTimes(open)).toMatchObject({
      reasoningIterations: 0,
      reasoningPerIterationMs: 0,
      slowestIterationMs: 0,
    });
  });
});
