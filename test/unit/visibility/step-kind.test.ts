import { describe, expect, it } from 'vitest';
import type { ReasoningStep } from '../../../src/domain/chain/chain';
import { decidingLayer } from '../../../src/domain/visibility/lens-level';
import { stepKind, type CallKindFacts } from '../../../src/domain/visibility/step-kind';
import type { ViewLens } from '../../../src/domain/visibility/view-lens';
import { lensChain } from './lens-chain';

describe('stepKind', () => {
  const chain = lensChain();
  const facts = new Map<string, CallKindFacts>();
  for (const step of chain.steps)
    if (step.type === 'tool_call') facts.set(step.toolCall.correlationId, { toolType: step.toolCall.toolType });
  const kindOf = (n: number, known = facts) =>
    stepKind(
      chain.steps.find((s) => s.stepNumber === n)!,
      known,
    );

  it('names thinking, model calls and their results, tool calls and results, sub-agents and the answer', () => {
    expect(chain.steps.map((s) => stepKind(s, facts))).toEqual([
      'thinking',
      'thinking',
      'model_call',
      'model_call',
      'tool_call',
      'tool_result',
      'thinking',
      'tool_call',
      'tool_result',
      'tool_call',
      'sub_agent',
      'synthesis',
    ]);
  });

  it("reads a result's kind from its call's facts, else from the result itself", () => {
    const result = (extra: Record<string, unknown>) =>
      ({
        ...chain.steps[5]!,
        ...extra,
        toolResult: { correlationId: 'x', success: true, result: 1, durationMs: 1 },
      }) as ReasoningStep;
    expect(stepKind(result({}), new Map([['x', { toolType: 'llm' }]]))).toBe('model_call');
    expect(stepKind(result({}), new Map([['x', { toolType: 'sub_agent' }]]))).toBe('sub_agent');
    expect(stepKind(result({}), new Map([['x', { toolType: 'file_system' }]]))).toBe('tool_result');
    expect(stepKind(result({ model: 'm' }), new Map())).toBe('model_call');
    expect(stepKind(result({}), new Map())).toBe('tool_result');
    expect(kindOf(4, new Map())).toBe('model_call');
  });
});

describe('decidingLayer', () => {
  const lens = (steps: ViewLens['steps'], decidedBy: ViewLens['decidedBy']): ViewLens => ({
    view: 'end_user',
    steps,
    tools: {},
    toolTypes: {},
    sensitiveFields: {},
    summariesOnly: false,
    decidedBy,
  });

  it('names security, role or preference before the tool, and the tool before the platform', () => {
    expect(decidingLayer('thinking', 'summary', lens({ thinking: 'summary' }, { thinking: 'security' }))).toBe(
      'security',
    );
    expect(decidingLayer('thinking', 'hidden', lens({ thinking: 'hidden' }, { thinking: 'preference' }))).toBe(
      'preference',
    );
    expect(decidingLayer('thinking', 'hidden', lens({ thinking: 'summary' }, { thinking: 'role' }))).toBe('tool');
    expect(decidingLayer('thinking', 'summary', lens({ thinking: 'summary' }, { thinking: 'platform' }))).toBe('tool');
    expect(decidingLayer('thinking', 'full', lens({ thinking: 'summary' }, { thinking: 'platform' }))).toBe('platform');
    expect(decidingLayer('thinking', 'full', lens({}, {}))).toBeUndefined();
    expect(decidingLayer('thinking', 'summary', undefined)).toBe('tool');
  });
});
