import { describe, expect, it } from 'vitest';
import { zeroUsage, type ReasoningStep } from '../../../../src/domain';
import {
  allOf,
  anyOf,
  firstHolding,
  hasObservationMatching,
  hasToolCall,
  isIterationCount,
  isStepCount,
  type LoopView,
} from '../../../../src/workflows/loop/stop-conditions';

const result = (value: unknown): ReasoningStep => ({
  type: 'tool_result',
  stepId: 's',
  stepNumber: 1,
  timestamp: '2026-01-01T00:00:00.000Z',
  iteration: 1,
  visibility: { level: 'full' },
  toolResult: { correlationId: 'c', success: true, result: value, durationMs: 1 },
});
const view = (over: Partial<LoopView> = {}): LoopView => {
  const steps = over.steps ?? [];
  return { iteration: 1, steps, stepCount: steps.length, usage: zeroUsage(), costUsd: 0, lastToolCalls: [], ...over };
};

describe('stop predicates', () => {
  it('count steps and iterations', () => {
    expect(isStepCount(2).test(view({ steps: [result(1)] }))).toBe(false);
    expect(isStepCount(1).test(view({ steps: [result(1)] }))).toBe(true);
    // After continue-as-new a long run holds only its latest steps; the count is the run's own.
    expect(isStepCount(300).test(view({ steps: [result(1)], stepCount: 300 }))).toBe(true);
    expect(isIterationCount(3).test(view({ iteration: 2 }))).toBe(false);
    expect(isIterationCount(3).test(view({ iteration: 3 }))).toBe(true);
  });

  it('see the last iteration’s tool calls, optionally by arguments', () => {
    const v = view({ lastToolCalls: [{ name: 'deploy', arguments: { env: 'staging' } }] });
    expect(hasToolCall('deploy').test(v)).toBe(true);
    expect(hasToolCall('deploy', (a) => a['env'] === 'prod').test(v)).toBe(false);
    expect(hasToolCall('rollback').test(v)).toBe(false);
  });

  it('match observations and compose, reporting the first that holds by name', () => {
    const v = view({ steps: [result({ status: 'DONE' })] });
    expect(hasObservationMatching(/DONE/).test(v)).toBe(true);
    expect(anyOf(isStepCount(5), hasObservationMatching(/DONE/)).test(v)).toBe(true);
    expect(allOf(isStepCount(5), hasObservationMatching(/DONE/)).test(v)).toBe(false);
    expect(firstHolding([isStepCount(5), hasObservationMatching(/DONE/)], v)).toBe('hasObservationMatching(/DONE/)');
    expect(firstHolding([isStepCount(5)], v)).toBeUndefined();
  });
});
