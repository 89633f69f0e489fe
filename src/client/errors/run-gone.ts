import { isGrpcServiceError, WorkflowNotFoundError } from '@temporalio/client';

/** gRPC's NOT_FOUND: the server has no such Temporal run (past the namespace's retention, deleted, or never started). */
const NOT_FOUND = 5;

/** True when `err` says the server no longer has the run; any other failure (the server down, a denied call) is not. */
export function isRunGone(err: unknown): boolean {
  return err instanceof WorkflowNotFoundError || (isGrpcServiceError(err) && err.code === NOT_FOUND);
}

/** `read()`, or undefined when the run it reads is gone from the server; other failures propagate. */
export async function unlessRunGone<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (isRunGone(err)) return undefined;
    throw err;
  }
}
