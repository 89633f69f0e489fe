import type { ModelReply, ModelRequest } from '../../shared';

/**
 * One model backend. Runs inside the `callModel` activity (Node side), so it may do I/O.
 * It must throw `ApplicationFailure`s typed with `FailureType` (retryable or not), never plain
 * errors, and must stop promptly when `signal` aborts (activity cancellation).
 */
export interface ModelProvider {
  readonly name: string;
  complete(request: ModelRequest, signal: AbortSignal): Promise<ModelReply>;
}
