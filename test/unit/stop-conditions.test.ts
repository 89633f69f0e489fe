import { describe, expect, it } from 'vitest';
import { firstStop, reachedMaxIterations, type StopCondition } from '../../src/workflows/stop-conditions';

describe('stop conditions', () => {
  it('stops at max iterations and not before', () => {
    const stops = [reachedMaxIterations(3)];
    expect(firstStop(stops, { iteration: 2 })).toBeUndefined();
    expect(firstStop(stops, { iteration: 3 })).toBe('max_iterations');
  });

  it('returns the first condition that fires', () => {
    const never: StopCondition = { name: 'never', check: () => undefined };
    const custom: StopCondition = { name: 'custom', check: () => 'custom' };
    expect(firstStop([never, custom, reachedMaxIterations(0)], { iteration: 0 })).toBe('custom');
  });
});
