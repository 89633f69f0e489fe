import type { FactToolCall, ScoringFacts } from '../../../src/domain/evaluation';

/** Facts of a plain successful run; each test overrides what it is about. */
export function facts(over: Partial<ScoringFacts> = {}): ScoringFacts {
  return {
    success: true,
    terminationReason: 'success',
    finalAnswer: 'done',
    answerCut: false,
    grounding: 'grounded',
    taskChoices: [],
    consensus: [],
    formatErrors: 0,
    iterations: 2,
    maxIterations: 10,
    toolCalls: [],
    chainComplete: true,
    modelCalls: 2,
    costUsd: 0,
    tokens: 100,
    latencyMs: 1_000,
    ...over,
  };
}

/** A successful call with a thought. */
export const call = (
  tool: string,
  args: Record<string, unknown> = {},
  over: Partial<FactToolCall> = {},
): FactToolCall => ({
  tool,
  toolType: 'external',
  arguments: args,
  withThought: true,
  success: true,
  ...over,
});
