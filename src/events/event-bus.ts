import type { RunEvent } from '../domain/run/run-event';

/**
 * Carries run events from the processes that produce them (workers: workflow sinks and model
 * activities) to the processes that serve them (`thoughtline serve`). Delivery is best effort and
 * at most once: a server always catches up from the durable chain, so a lost event costs latency,
 * never a step.
 */
export interface EventBus {
  publish(event: RunEvent): void;
  /** Calls `listener` for each event of one run (by workflow id) until the returned function is called. */
  subscribe(workflowId: string, listener: (event: RunEvent) => void): () => void;
  /**
   * Calls `listener` for each event of every run until the returned function is called (the chain
   * store's projection). `onReconnect`, when given, is called each time the bus's connection comes
   * back after a loss: events published meanwhile are gone, so the listener catches up elsewhere.
   */
  subscribeAll(listener: (event: RunEvent) => void, onReconnect?: () => void): () => void;
  close(): Promise<void>;
}
