import { CancellationScope, condition } from '@temporalio/workflow';

/** Work a run does once its code has settled in a workflow task. */
export interface AtRest {
  /** Runs `fn` once, when this workflow task's code next settles (all its microtasks done). */
  once(fn: () => void): void;
}

/**
 * One condition whose predicate never holds: the SDK evaluates it after each activation's
 * microtasks have drained, so it runs what is queued there without a promise per task (each
 * promise a workflow makes costs the SDK a stack trace). What it runs must make no commands:
 * predicates are also evaluated on replay, at points history does not record.
 */
export function createAtRest(): AtRest {
  let queued: Array<() => void> = [];
  let watching = false;
  const runQueued = (): false => {
    // What a queued function queues runs in the same pass.
    while (queued.length > 0) {
      const run = queued;
      queued = [];
      for (const fn of run) fn();
    }
    return false;
  };
  return {
    once(fn) {
      queued.push(fn);
      if (watching) return;
      watching = true;
      // Outside any cancellation scope: a cancelled loop must not stop what it queued.
      void CancellationScope.nonCancellable(() => condition(runQueued));
    },
  };
}
