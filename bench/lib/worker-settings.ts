import type { Worker } from '@temporalio/worker';

type Slots = Worker['options']['tuner']['workflowTaskSlotSupplier'];
const slots = (s: Slots): number | string => (s.type === 'fixed-size' ? s.numSlots : s.type);

/** The options a Worker actually runs with (SDK defaults resolved), for the results file. */
export function workerSettings(worker: Worker): Record<string, unknown> {
  const o = worker.options;
  return {
    maxCachedWorkflows: o.maxCachedWorkflows,
    maxConcurrentWorkflowTaskExecutions: slots(o.tuner.workflowTaskSlotSupplier),
    maxConcurrentActivityTaskExecutions: slots(o.tuner.activityTaskSlotSupplier),
    workflowTaskPollerBehavior: o.workflowTaskPollerBehavior,
    activityTaskPollerBehavior: o.activityTaskPollerBehavior,
    reuseV8Context: o.reuseV8Context,
    workflowThreadPoolSize: o.workflowThreadPoolSize,
    stickyQueueScheduleToStartTimeoutMs: o.stickyQueueScheduleToStartTimeoutMs,
  };
}
