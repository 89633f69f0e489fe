import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { threadCount } from '../../../src/activities/models/local/llama-engine';

describe('the local model thread count', () => {
  const cores = os.availableParallelism();

  it('leaves one core to the worker by default, never going below one thread', () => {
    expect(threadCount(undefined)).toBe(Math.max(1, cores - 1));
  });

  it('caps a request at the cores and lifts nonsense to one thread', () => {
    expect(threadCount(cores + 8)).toBe(cores);
    expect(threadCount(0)).toBe(1);
    expect(threadCount(1.7)).toBe(1);
  });
});
