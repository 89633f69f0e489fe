import { condition } from '@temporalio/workflow';

/** Work a run does once its code has settled in a workflow task. */
export interface AtRest {
  /** Runs `fn` once, when this workflow task's code next settles (all its microtasks done). */
  once(fn: () => void): void;
}

/**
 * Where at-rest-interceptors.ts leaves the queue it made for a run: on the run's own globals,
 * which the SDK keeps apart for each run even in a shared V8 context.
 */
const RUN_QUEUE = Symbol.for('thoughtline.atRestQueue');

/** Functions waiting for the task's code to settle. What it runs must make no commands: it also runs on replay. */
export class AtRestQueue implements AtRest {
  private queued: Array<() => void> = [];
  private atOnce = false;

  once(fn: () => void): void {
    if (this.atOnce) fn();
    else this.queued.push(fn);
  }

  /** Runs everything queued; what a queued function queues runs in the same pass. */
  runQueued(): void {
    while (this.queued.length > 0) {
      const run = this.queued;
      this.queued = [];
      for (const fn of run) fn();
    }
  }

  /** From now on each function runs when it is queued (nothing will call runQueued again). */
  runFromNowOn(): void {
    this.atOnce = true;
    this.runQueued();
  }
}

/** Called by the interceptor module for each run before its workflow starts; the run's createAtRest takes this queue. */
export function installRunQueue(): AtRestQueue {
  const queue = new AtRestQueue();
  (globalThis as Record<symbol, unknown>)[RUN_QUEUE] = queue;
  return queue;
}

/**
 * The run's at-rest queue. In a bundle built with WORKFLOW_BUNDLER_OPTIONS it is the one the
 * at-rest interceptor runs as each activation concludes: no promise at all. A bundle without it
 * (a workflow file of the user's own, bundled by the SDK alone) gets the fallback: one
 * condition whose predicate never holds. The SDK evaluates it after each activation's microtasks
 * have drained, so it runs what is queued there; predicates are also evaluated on replay, at
 * points history does not record, hence no commands. Made in the scope the run starts in (the
 * root), so a cancelled loop cannot stop it; only Temporal's own cancel of the whole run does,
 * and from then on each queued function runs at once instead. Four promises.
 */
export function createAtRest(): AtRest {
  const installed = (globalThis as Record<symbol, unknown>)[RUN_QUEUE];
  if (installed instanceof AtRestQueue) return installed;
  const queue = new AtRestQueue();
  void condition(() => (queue.runQueued(), false)).catch(() => queue.runFromNowOn());
  return queue;
}
