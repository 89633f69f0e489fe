import { messageWithCauses } from '../errors/read-error-text';
import { isUnknownSearchAttribute } from '../errors/server-error-advice';

/** One more try of a start the server refused for a search attribute it does not know (yet). */
export interface StartRetry {
  /** The try that failed, from 1. */
  attempt: number;
  /** Tries in all, at most. */
  attempts: number;
  delayMs: number;
  /** The failure, with the server's words. */
  reason: string;
}

/**
 * The pauses before each new try: 15.75 s in all, more than the 10 s a cluster's frontend may take
 * to see an attribute registered a moment ago.
 */
export const START_RETRY_DELAYS_MS: readonly number[] = [250, 500, 1_000, 2_000, 4_000, 4_000, 4_000];

/**
 * `start()`, tried again after each pause of `delaysMs` while it fails because the server does not
 * know one of the run's search attributes (isUnknownSearchAttribute): just registered, they reach
 * every frontend only when its namespace cache refreshes. Any other failure, and the last one,
 * propagate as they are. Safe to repeat: a refused start created nothing.
 */
export async function retryUnknownSearchAttribute<T>(
  start: () => Promise<T>,
  options: { delaysMs?: readonly number[]; onRetry?: (retry: StartRetry) => void } = {},
): Promise<T> {
  const delays = options.delaysMs ?? START_RETRY_DELAYS_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      const delayMs = delays[attempt - 1];
      if (delayMs === undefined || !isUnknownSearchAttribute(err)) throw err;
      options.onRetry?.({ attempt, attempts: delays.length + 1, delayMs, reason: messageWithCauses(err) });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
