import { WorkflowNotFoundError } from '@temporalio/client';
import { ApiError } from './api-error';
import { runNotFound } from './run-access';

/**
 * A read that needs a worker (a query): a run that vanished is 404, any other failure 503 with
 * what to do. Ended runs other than completed ones are answered by queries, so need a worker too.
 */
export async function liveRead<T>(read: () => Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  // A query nobody answers (no worker on the queue) would hold the request open; it gets a 503 instead.
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ApiError(
            'unavailable',
            `No worker answered for the run within ${timeoutMs / 1000} s: a worker must be polling its task queue. Retry shortly.`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([read(), late]);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof WorkflowNotFoundError) throw runNotFound();
    throw new ApiError(
      'unavailable',
      `The run could not be read now: a worker must be polling its task queue. Retry shortly.`,
    );
  } finally {
    clearTimeout(timer);
  }
}

/** How long a request waits for a worker to answer a query, by default. */
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;
