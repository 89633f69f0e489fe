import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/workflow';

/** The most useful line of a failure: an activity's own ApplicationFailure message, not its wrapper. */
export function failureMessage(err: unknown): string {
  if ((err instanceof ActivityFailure || err instanceof ChildWorkflowFailure) && err.cause)
    return failureMessage(err.cause);
  if (err instanceof ApplicationFailure && err.type) return `${err.type}: ${err.message}`;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The `type` of the ApplicationFailure at the root of `err` (an activity's classification), if any. */
export function failureType(err: unknown): string | undefined {
  if ((err instanceof ActivityFailure || err instanceof ChildWorkflowFailure) && err.cause)
    return failureType(err.cause);
  return err instanceof ApplicationFailure ? (err.type ?? undefined) : undefined;
}
