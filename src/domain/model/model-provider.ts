import type { ModelReply, ModelRequest } from '../index';

/** Side channels of one model call. Nothing here enters workflow history. */
export interface ModelCallHooks {
  /** Called as stream chunks arrive, so Temporal knows the call is alive. */
  heartbeat?(): void;
  /** Text the model is writing, as it arrives (for live watchers only). */
  onTextDelta?(text: string): void;
  /** Extended-thinking text as it arrives (for live watchers only). */
  onThinkingDelta?(text: string): void;
}

/**
 * One model backend. Runs inside the `callModel` activity (Node side), so it may do I/O.
 * It must throw `ApplicationFailure`s typed with `FailureType` (retryable or not), never plain
 * errors, and must stop promptly when `signal` aborts (activity cancellation), rethrowing
 * `signal.reason` so the activity ends as cancelled rather than failed.
 */
export interface ModelProvider {
  readonly name: string;
  /**
   * What a worker says once, when it starts, about this provider: that it cannot work as set up
   * (no API key), what its runs will meet, and what to do. Undefined when nothing is wrong.
   */
  readonly startWarning?: string;
  complete(request: ModelRequest, signal: AbortSignal, hooks?: ModelCallHooks): Promise<ModelReply>;
}
