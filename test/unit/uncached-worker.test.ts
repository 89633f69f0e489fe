import { describe, expect, it } from 'vitest';
import { uncachedWorkerSlots } from '../../src/deployment/uncached-worker';

describe('a worker without a workflow cache', () => {
  it('runs one workflow task at a time unless it asked otherwise', () => {
    expect(uncachedWorkerSlots({ maxCachedWorkflows: 0 })).toEqual({
      options: { maxConcurrentWorkflowTaskExecutions: 1 },
    });
    expect(uncachedWorkerSlots({ maxCachedWorkflows: 0, maxConcurrentWorkflowTaskExecutions: 1 })).toEqual({
      options: {},
    });
  });

  it('is told why its runs may stall when it asked for more tasks at a time', () => {
    const { options, warning } = uncachedWorkerSlots({ maxCachedWorkflows: 0, maxConcurrentWorkflowTaskExecutions: 4 });
    expect(options).toEqual({});
    expect(warning).toContain('maxConcurrentWorkflowTaskExecutions: 4');
    expect(warning).toContain('times out (10 s)');
  });

  it('changes nothing with a cache, the default cache, or a slot tuner of its own', () => {
    expect(uncachedWorkerSlots(undefined)).toEqual({ options: {} });
    expect(uncachedWorkerSlots({})).toEqual({ options: {} });
    expect(uncachedWorkerSlots({ maxCachedWorkflows: 100 })).toEqual({ options: {} });
    const tuner = { tunerOptions: { targetMemoryUsage: 0.8, targetCpuUsage: 0.9 } };
    expect(uncachedWorkerSlots({ maxCachedWorkflows: 0, tuner })).toEqual({ options: {} });
  });
});
