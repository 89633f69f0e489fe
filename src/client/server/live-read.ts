import { WorkflowNotFoundError } from '@temporalio/client';
import { ApiError } from './api-error';
import { runNotFound } from './run-access';

/**
 * A read that needs a worker (a query): a run that vanished is 404, any other failure 503 with
 * what to do. Ended runs other than completed ones are answered by queries, so need a worker too.
 */
export async function liveRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof WorkflowNotFoundError) throw runNotFound();
    throw new ApiError('unavailable', `The run could not be read now: a worker must be polling its task queue. Retry shortly.`);
  }
}
