import { WorkflowUpdateFailedError } from '@temporalio/client';

/** A run refused an update (an approval, an answer): its validator's message, and nothing reached history. */
export class UpdateRefusedError extends Error {
  override readonly name = 'UpdateRefusedError';
}

/** Sends an update, turning a validator's refusal into an UpdateRefusedError with the run's own words. */
export async function sendUpdate<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) throw new UpdateRefusedError(err.cause?.message ?? err.message);
    throw err;
  }
}
