import { WorkflowNotFoundError } from '@temporalio/client';

/** Why a run could not be read, short enough to stand in for it in a tree or an expanded chain. */
export const readErrorText = (err: unknown): string =>
  err instanceof WorkflowNotFoundError ? 'not found' : err instanceof Error ? err.message : String(err);
