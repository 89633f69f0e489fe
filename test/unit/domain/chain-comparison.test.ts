import { describe, expect, it } from 'vitest';
import type { ReasoningChain, ReasoningStep } from '../../../src/domain';
import { compareChains } from '../../../src/domain/compare/chain-comparison';

let n = 0;
const base = (iteration: number) => ({
  stepId: `s${++n}`,
  stepNumber: n,
  timestamp: '2026-11-29T00:00:00.000Z',
  iteration,
  visibility: { level: 'full' as const },
});
const thought = (iteration: number, text: string): ReasoningStep => ({
  ...base(iteration),
  type: 'thinking',
  thought: text,
});
const call = (iteration: number, id: string, tool: string, args: Record<string, unknown>): ReasoningStep => ({
  ...base(iteration),
  type: 'tool_call',
  toolCall: { toolType: 'custom', toolName: tool, arguments: args, correlationId: id },
});
const result = (iteration: number, id: string, value: unknown, extra: Partial<ReasoningStep> = {}): ReasoningStep =>
  ({
    ...base(iteration),
    type: 'tool_result',
    toolResult: { correlationId: id, success: true, result: value, durationMs: 1 },
    ...extra,
  }) as ReasoningStep;
const modelReply = (iteration: number, model: string, costUsd: number): ReasoningStep[] => [
  {
    ...base(iteration),
    type: 'tool_call',
    toolCall: { toolType: 'llm', toolName: model, arguments: {}, correlationId: `m${n}` },
  },
  result(iteration, `m${n - 1}`, 'reply', {
    model,
    costUsd,
    usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
  } as Partial<ReasoningStep>),
];
const answer = (iteration: number, text: string): ReasoningStep => ({
  ...base(iteration),
  type: 'synthesis',
  synthesis: { sources: [], conclusion: text, terminationReason: 'success' },
});
const chain = (id: string, steps: ReasoningStep[]): ReasoningChain =>
  ({
    schemaVersion: 1,
    chainId: id,
    agentName: 'agent',
    task: 'How much?',
    startedAt: '2026-11-29T00:00:00.000Z',
    status: 'completed',
    steps,
  }) as ReasoningChain;

describe('two chains side by side (compareChains)', () => {
  it('finds two identical runs the same, with arguments compared whatever their key order', () => {
    const a = chain('a', [
      ...modelReply(1, 'm1', 0.01),
      thought(1, 'Look it up.'),
      call(1, 'c1', 'lookup', { key: 'abc', region: 'eu' }),
      result(1, 'c1', { value: 30 }),
      answer(1, 'It is 30.'),
    ]);
    const b = chain('b', [
      ...modelReply(1, 'm1', 0.01),
      thought(1, 'Look it up.'),
      call(1, 'c9', 'lookup', { region: 'eu', key: 'abc' }),
      result(1, 'c9', { value: 30 }),
      answer(1, 'It is 30.'),
    ]);
    const c = compareChains(a, b);
    expect(c.iterations).toEqual([expect.objectContaining({ iteration: 1, differences: [] })]);
    expect(c.firstDifference).toBeUndefined();
    expect(c.answerDiffers).toBe(false);
    expect(c.a).toMatchObject({ runId: 'a', iterations: 1, costUsd: 0.01, tokens: 15, answer: 'It is 30.' });
  });

  it('marks each kind of difference: arguments, results, the model that answered, cost, and an iteration only one run has', () => {
    const a = chain('a', [
      ...modelReply(1, 'm1', 0.01),
      call(1, 'c1', 'lookup', { key: 'abc' }),
      result(1, 'c1', { value: 30 }),
      ...modelReply(2, 'm1', 0.01),
      call(2, 'c2', 'lookup', { key: 'x' }),
      result(2, 'c2', 1),
    ]);
    const b = chain('b', [
      ...modelReply(1, 'm2', 0.02),
      call(1, 'c1', 'lookup', { key: 'abd' }),
      result(1, 'c1', { value: 31 }),
      ...modelReply(2, 'm1', 0.01),
      call(2, 'c2', 'search', { key: 'x' }),
      result(2, 'c2', 1),
      ...modelReply(3, 'm1', 0.01),
    ]);
    const c = compareChains(a, b);
    expect(c.iterations.map((i) => [i.iteration, i.differences])).toEqual([
      [1, ['arguments', 'results', 'model', 'cost']],
      [2, ['calls']],
      [3, ['missing']],
    ]);
    expect(c.firstDifference).toBe(1);
    expect(c.iterations[2]!.a).toBeUndefined();
  });

  it('leaves out model calls and the loop’s own notes, and records a failed call with its error', () => {
    const failed = {
      ...base(1),
      type: 'tool_result',
      toolResult: { correlationId: 'c1', success: false, result: null, error: 'no such key', durationMs: 1 },
    } as ReasoningStep;
    const a = chain('a', [
      ...modelReply(1, 'm1', 0),
      { ...base(1), type: 'thinking', thought: 'Context: …', purpose: 'context' },
      call(1, 'c1', 'lookup', { key: 'abc' }),
      failed,
    ]);
    const [it1] = compareChains(a, a).iterations;
    expect(it1!.a).toMatchObject({
      thoughts: [],
      calls: [{ tool: 'lookup', arguments: '{"key":"abc"}', result: 'no such key', failed: true }],
      models: ['m1'],
    });
  });

  it("leaves a fork's note on where it started out of its thoughts, and says where it started", () => {
    const kept = [...modelReply(1, 'm1', 0), thought(1, 'Look it up.'), call(1, 'c1', 'lookup', { key: 'abc' })];
    const origin = chain('a', [...kept, result(1, 'c1', 30)]);
    const last = kept.length + 1;
    const fork = {
      ...chain('b', [...kept, result(1, 'c1', 30), thought(1, 'Forked from run a at step 4.')]),
      forkedFrom: { workflowId: 'a', atStep: last, keptThroughStep: last },
    } as ReasoningChain;
    fork.steps[fork.steps.length - 1]!.stepNumber = last + 1;
    const c = compareChains(origin, fork);
    expect(c.iterations[0]!.differences).toEqual([]);
    expect(c.b.forkedFrom).toEqual({ workflowId: 'a', keptThroughStep: last });
  });
});
