import type { WorkerOptions } from '@temporalio/worker';

/**
 * Workflow task slots for a worker without a workflow cache (`maxCachedWorkflows: 0`). Every run
 * starts with local activities (describeTools and the other lookups of the worker's registry),
 * local tools are local activities too, and without a cache Temporal's core may evict a run
 * while its local activity runs when it holds another run's task: that run's workflow task then
 * times out (10 s) and runs again. One task at a time makes it rare (not impossible: one test of
 * six runs at once still met it once in five full suites), so it is the default here; a worker
 * that asked for more is told why its runs may stall. With a cache (the SDK's default),
 * or a slot tuner of its own, nothing changes.
 */
export function uncachedWorkerSlots(options: Partial<WorkerOptions> | undefined): {
  options: Partial<WorkerOptions>;
  warning?: string;
} {
  if (options?.maxCachedWorkflows !== 0 || options.tuner !== undefined) return { options: {} };
  const asked = options.maxConcurrentWorkflowTaskExecutions;
  if (asked === undefined) return { options: { maxConcurrentWorkflowTaskExecutions: 1 } };
  if (asked <= 1) return { options: {} };
  return {
    options: {},
    warning: `maxCachedWorkflows: 0 with maxConcurrentWorkflowTaskExecutions: ${asked}: every run starts with local activities, and Temporal's core may evict a run while its local activity runs; that run's workflow task then times out (10 s) and runs again. Leave maxConcurrentWorkflowTaskExecutions unset (one task at a time without a cache) or keep a workflow cache (the SDK's default).`,
  };
}
