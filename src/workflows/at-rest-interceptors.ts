/**
 * A workflow interceptor module (WORKFLOW_BUNDLER_OPTIONS' `workflowInterceptorModules`): for
 * each run, the queue its at-rest work waits in (core/state/at-rest.ts), run when each activation
 * concludes. The SDK concludes an activation after its jobs and all their microtasks, as the
 * condition this replaces saw it, but with no promise (the condition made four on every run's
 * first task, each a stack trace the SDK takes). Sink calls made here still leave with the
 * activation. Not on the preload list: the SDK loads interceptor modules for each run.
 */
import type { WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { installRunQueue } from './core/state/at-rest';

export const interceptors: WorkflowInterceptorsFactory = () => {
  const queue = installRunQueue();
  return {
    internals: [
      {
        concludeActivation(input, next) {
          queue.runQueued();
          return next(input);
        },
      },
    ],
  };
};
