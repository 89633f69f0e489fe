import type { RunFacts, RunSpanContext } from './workflows/telemetry-sinks';

/** Runs whose span a process remembers for content capture; the oldest is forgotten first. */
const MAX_RUNS = 10_000;

export type RunSpan = RunFacts & RunSpanContext;

/**
 * Each open run's facts and span, as its workflow's `runSpan` sink last told this process (every
 * live workflow task tells it, so a worker that took a run over learns it at its first task).
 * Shared by the process's workers: the sinks are the process's, the policies each worker's.
 */
export function createRunSpans() {
  const runs = new Map<string, RunSpan>();
  return {
    set(workflowId: string, run: RunSpan): void {
      runs.delete(workflowId);
      runs.set(workflowId, run);
      if (runs.size > MAX_RUNS) runs.delete(runs.keys().next().value!);
    },
    get: (workflowId: string): RunSpan | undefined => runs.get(workflowId),
    forget(workflowId: string): void {
      runs.delete(workflowId);
    },
  };
}

export type RunSpans = ReturnType<typeof createRunSpans>;
