import { describe, expect, it } from 'vitest';
import type { ReasoningChain, ReasoningStep } from '../../src/domain';
import { ChainSummary, LONG_CHAIN_STEPS, summariseChain } from '../../src/domain/store';
import { filterChainSteps } from '../../src/client/store/step-filter-match';

const at = (n: number) => new Date(Date.UTC(2026, 10, 26, 0, 0, n)).toISOString();
const base = (n: number) => ({
  stepId: `s${n}`,
  stepNumber: n,
  timestamp: at(n),
  iteration: 1,
  visibility: { level: 'full' as const },
});

function chainOf(steps: ReasoningStep[]): ReasoningChain {
  return {
    schemaVersion: 1,
    chainId: 'run-1',
    agentName: 'payer',
    task: 'pay the bill',
    startedAt: at(0),
    status: 'completed',
    steps,
  } as ReasoningChain;
}

const steps: ReasoningStep[] = [
  { ...base(1), type: 'thinking', thought: 'First look it up, then pay.', purpose: 'plan' },
  {
    ...base(2),
    type: 'tool_call',
    toolCall: { toolName: 'llm', toolType: 'llm', arguments: {}, correlationId: 'm1' },
    usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0.01,
  },
  {
    ...base(3),
    type: 'tool_call',
    toolCall: { toolName: 'lookup', toolType: 'external', arguments: { key: 'Bill-42' }, correlationId: 'c1' },
  },
  {
    ...base(5),
    type: 'tool_result',
    toolResult: { correlationId: 'c1', success: false, result: null, error: 'down', durationMs: 1500 },
  },
  { ...base(6), type: 'synthesis', synthesis: { sources: [], conclusion: 'Could not pay: lookup is down.' } },
] as ReasoningStep[];

describe('summariseChain', () => {
  it('counts steps by type, tools with calls, failures and time, tokens, cost and the decisions', () => {
    const summary = ChainSummary.parse(summariseChain(chainOf(steps)));
    expect(summary).toMatchObject({
      runId: 'run-1',
      steps: 5,
      byType: { thinking: 1, tool_call: 2, tool_result: 1, synthesis: 1 },
      modelCalls: 1,
      inputTokens: 100,
      outputTokens: 20,
      costUsd: 0.01,
      durationMs: 5_000,
    });
    expect(summary.tools).toContainEqual({ name: 'lookup', calls: 1, failures: 1, totalMs: 1500 });
    expect(summary.decisions.map((d) => [d.stepNumber, d.kind])).toEqual([
      [1, 'plan'],
      [6, 'answer'],
    ]);
    expect(summary.longChain).toBeUndefined();
  });

  it('cuts decisions to 200 characters, keeps the latest 50, and warns past LONG_CHAIN_STEPS', () => {
    const many = Array.from({ length: LONG_CHAIN_STEPS + 1 }, (_, i) => ({
      ...base(i + 1),
      type: 'thinking',
      thought: `plan ${i} ${'x'.repeat(300)}`,
      purpose: 'plan',
    })) as ReasoningStep[];
    const summary = ChainSummary.parse(summariseChain(chainOf(many)));
    expect(summary.decisions).toHaveLength(50);
    expect(summary.decisions[49]!.stepNumber).toBe(LONG_CHAIN_STEPS + 1);
    expect(summary.decisions[0]!.text.length).toBe(200);
    expect(summary.longChain?.steps).toBe(LONG_CHAIN_STEPS + 1);
  });
});

describe('filterChainSteps', () => {
  it('narrows by type, tool (its call and result), time and text, ignoring case', () => {
    const numbers = (filter: Parameters<typeof filterChainSteps>[1]) =>
      filterChainSteps(chainOf(steps), filter).steps.map((s) => s.stepNumber);
    expect(numbers({ types: ['tool_result', 'synthesis'] })).toEqual([5, 6]);
    expect(numbers({ tool: 'lookup' })).toEqual([3, 5]);
    expect(numbers({ from: at(3), to: at(5) })).toEqual([3, 5]);
    expect(numbers({ text: 'bill-42' })).toEqual([3]);
    expect(numbers({ text: 'DOWN' })).toEqual([5, 6]);
    expect(numbers({})).toEqual([1, 2, 3, 5, 6]);
  });
});

describe('summariseChain: approvals and the models that answered (issue 62)', () => {
  const approvalSteps: ReasoningStep[] = [
    {
      ...base(1),
      type: 'tool_call',
      toolCall: { toolName: 'claude-sonnet-4-6', toolType: 'llm', arguments: {}, correlationId: 'm1' },
      model: 'claude-sonnet-4-6',
    },
    {
      ...base(2),
      type: 'tool_result',
      toolResult: { correlationId: 'm1', success: true, result: { stopReason: 'tool_use' }, durationMs: 3 },
      model: 'offline-model',
    },
    {
      ...base(3),
      type: 'thinking',
      thought: 'Approved by alice (ops): pay_bill (call c1): fine',
      fromPerson: { kind: 'approval', by: 'alice' },
    },
    {
      ...base(4),
      type: 'tool_call',
      toolCall: { toolName: 'claude-sonnet-4-6', toolType: 'llm', arguments: {}, correlationId: 'm2' },
      model: 'claude-sonnet-4-6',
    },
    {
      ...base(5),
      type: 'tool_result',
      toolResult: { correlationId: 'm2', success: false, result: null, error: 'Model call failed: x', durationMs: 0 },
      model: 'claude-sonnet-4-6',
    },
  ] as ReasoningStep[];

  it("names a person's approval among the decisions, with who decided what", () => {
    const summary = summariseChain(chainOf(approvalSteps));
    expect(summary.decisions).toEqual([
      { stepNumber: 3, kind: 'approval', text: 'Approved by alice (ops): pay_bill (call c1): fine' },
    ]);
  });

  it('lists a model call under the model that answered it; a failed one under the model asked', () => {
    const summary = summariseChain(chainOf(approvalSteps));
    expect(summary.modelCalls).toBe(2);
    expect(summary.tools).toEqual([
      { name: 'claude-sonnet-4-6', calls: 1, failures: 1, totalMs: 0 },
      { name: 'offline-model', calls: 1, failures: 0, totalMs: 3 },
    ]);
  });
});
