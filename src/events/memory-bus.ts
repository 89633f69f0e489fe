import type { RunEvent } from '../domain/run/run-event';
import type { EventBus } from './event-bus';

/** The bus for one process (`serve --with-worker`, tests): listeners are called synchronously. */
export function createMemoryBus(): EventBus {
  const listeners = new Map<string, Set<(event: RunEvent) => void>>();
  const everyRun = new Set<(event: RunEvent) => void>();
  return {
    publish(event) {
      for (const listener of [...(listeners.get(event.runId) ?? []), ...everyRun]) {
        try {
          listener(event);
        } catch {
          // One broken listener must not stop delivery to the others.
        }
      }
    },
    subscribe(workflowId, listener) {
      const set = listeners.get(workflowId) ?? new Set();
      set.add(listener);
      listeners.set(workflowId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(workflowId);
      };
    },
    subscribeAll(listener) {
      // In one process nothing is lost between publish and delivery, so there is no reconnect.
      everyRun.add(listener);
      return () => everyRun.delete(listener);
    },
    async close() {
      listeners.clear();
      everyRun.clear();
    },
  };
}
