import { condition } from '@temporalio/workflow';

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
 *
 * Made when the run starts, in the scope it starts in (the root), so a cancelled loop cannot
 * stop it; only Temporal's own cancel of the whole run does, and from then on each queued
 * function runs at once instead. Four promises in all, where a non-cancellable scope of its own
 * took seven.
 */
export function createAtRest(): AtRest {
  let queued: Array<() => void> = [];
  let cancelled = false;
  const runQueued = (): false => {
    // What a queued function queues runs in the same pass.
    while (queued.length > 0) {
      const run = queued;
      queued = [];
      for (const fn of run) fn();
    }
    return false;
  };
  void condition(runQueued).catch(() => {
    cancelled = true;
    runQueued();
  });
  return {
    once(fn) {
      if (cancelled) fn();
      else queued.push(fn);
    },
  };
}
