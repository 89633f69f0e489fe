import { describe, expect, it } from 'vitest';
import type { AgentResult, ReasoningStep } from '../../../src/domain';
import { factsOf } from '../../../src/domain/evaluation';

let n = 0;
const base = () => ({
  stepId: `s${++n}`,
  stepNumber: n,
  timestamp: '2026-01-01T00:00:00Z',
  iteration: 1,
  visibility: { level: 'full' },
});
const llm = (): ReasoningStep[] =>
  [
    {
      ...base(),
      type: 'tool_call',
      toolCall: { toolType: 'llm', toolName: 'm', arguments: {}, correlationId: `l${n}` },
    },
    {
      ...base(),
      type: 'tool_result',
      toolResult: { correlationId: `l${n - 1}`, success: true, result: {}, durationMs: 1 },
    },
  ] as ReasoningStep[];
const thought = (text: string, extra: Record<string, unknown> = {}): ReasoningStep =>
  ({ ...base(), type: 'thinking', thought: text, ...extra }) as ReasoningStep;
const callAndResult = (tool: string, id: string, success: boolean): ReasoningStep[] =>
  [
    {
      ...base(),
      type: 'tool_call',
      toolCall: { toolType: 'external', toolName: tool, arguments: { q: id }, correlationId: id },
    },
    {
      ...base(),
      type: 'tool_result',
      toolResult: { correlationId: id, success, result: null, durationMs: 1, ...(success ? {} : { error: 'boom' }) },
    },
  ] as ReasoningStep[];

const resultOf = (steps: ReasoningStep[]) =>
  ({
    success: true,
    terminationReason: 'success',
    finalAnswer: 'x'.repeat(40_000),
    chain: { steps },
    usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 1, cacheWriteTokens: 0 },
    costUsd: 0.5,
    iterations: 3,
    maxIterations: 10,
    executionTimeMs: 1234,
    modelCalls: 3,
    formatErrors: 1,
    grounding: 'grounded',
  }) as unknown as AgentResult;

describe('factsOf', () => {
  it('marks the calls of a turn whose model gave a thought: the llm call, its result, the thought, then the calls', () => {
    const steps = [
      // A person's steering instruction before the turn is not the model's thought.
      thought('Instruction from ada: hurry', { fromPerson: { kind: 'steer', by: 'ada' } }),
      ...llm(),
      ...callAndResult('silent', 'c1', false),
      // The loop's note between two calls of one turn (a call waiting for approval) is not a thought either.
      thought('Waiting for approval of pay (call c1b): always.'),
      ...callAndResult('pay', 'c1b', true),
      ...llm(),
      thought('I need both lookups.'),
      ...callAndResult('search', 'c2', true),
      ...callAndResult('search', 'c3', true),
      ...llm(),
      thought('A plan note', { purpose: 'plan' }),
      ...callAndResult('finish', 'c4', true),
    ];
    const facts = factsOf(resultOf(steps), { finish: 'finish', giveUp: 'give_up' });
    expect(facts.toolCalls.map((c) => [c.tool, c.withThought, c.success])).toEqual([
      ['silent', false, false],
      ['pay', false, true],
      ['search', true, true],
      ['search', true, true],
    ]);
    expect(facts.toolCalls[0]).toMatchObject({ error: 'boom', arguments: { q: 'c1' } });
    expect(facts).toMatchObject({
      tokens: 16,
      costUsd: 0.5,
      latencyMs: 1234,
      modelCalls: 3,
      formatErrors: 1,
      chainComplete: true,
    });
    expect(facts.answerCut).toBe(true);
    expect(facts.finalAnswer).toHaveLength(32_000);
    expect(facts.consensus).toEqual([]);
  });

  it('reads each consensus result (an agreement, unanimity and groups) and nothing that only looks like one', () => {
    const consensus = { agreement: 0.5, unanimous: false, groups: [['brief'], ['wordy']], answers: [] };
    const steps = [
      ...callAndResult('ask_model', 'k1', true).map((s) =>
        s.type === 'tool_result' ? ({ ...s, toolResult: { ...s.toolResult, result: consensus } } as ReasoningStep) : s,
      ),
      ...callAndResult('lookup', 'k2', true).map((s) =>
        s.type === 'tool_result'
          ? ({ ...s, toolResult: { ...s.toolResult, result: { agreement: 'high' } } } as ReasoningStep)
          : s,
      ),
    ];
    const facts = factsOf(resultOf(steps), { finish: 'finish', giveUp: 'give_up' });
    expect(facts.consensus).toEqual([{ agreement: 0.5, unanimous: false, groups: [['brief'], ['wordy']] }]);
  });
});
