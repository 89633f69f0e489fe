/**
 * The scale workers' options unless BENCH_SCALE_WORKER_OPTIONS overrides them: up to 500 runs
 * stay cached (each costs about 4 MB; more is an eviction and a replay), every run's 200 ms model
 * call can wait at once, and pollers scale with the backlog.
 */
export function scaleWorkerOptions(runs: number): Record<string, unknown> {
  const slots = Math.max(runs, 10);
  return {
    maxCachedWorkflows: Math.min(slots, 500),
    maxConcurrentWorkflowTaskExecutions: Math.min(slots, 100),
    maxConcurrentActivityTaskExecutions: slots,
    workflowTaskPollerBehavior: { type: 'autoscaling' },
    activityTaskPollerBehavior: { type: 'autoscaling' },
  };
}
