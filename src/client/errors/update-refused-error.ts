import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';

/** A run refused an update (an approval, an answer): its validator's message, and nothing reached history. */
export class UpdateRefusedError extends Error {
  override readonly name = 'UpdateRefusedError';
}

/**
 * Sends an update, turning a validator's refusal into an UpdateRefusedError with the run's own
 * words, and an update to a run that has ended (Temporal: "workflow execution already
 * completed", as a WorkflowNotFoundError) into one that says so.
 */
export async function sendUpdate<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) throw new UpdateRefusedError(err.cause?.message ?? err.message);
    if (err instanceof WorkflowNotFoundError && /already completed/i.test(err.message)) {
      throw new UpdateRefusedError(`run ${err.workflowId} has ended; nothing was sent to it.`);
    }
    throw err;
  }
}
