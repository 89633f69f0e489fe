import { WorkflowNotFoundError } from '@temporalio/client';
import { UnknownRunError } from '../../client/errors/unknown-run-error';
import { cliName } from '../../client/follow/cli-name';

/** The run id a failure says is missing, from it or any error it wraps; undefined for other failures. */
export function missingRunId(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof WorkflowNotFoundError && e.workflowId) return e.workflowId;
    if (e instanceof UnknownRunError) return e.workflowId;
  }
  return undefined;
}

/**
 * What every command taking a run id says when Temporal has no run of that id (never started,
 * mistyped, past retention), instead of the SDK's "workflow not found": one line, and where ids are listed.
 */
export const missingRunText = (workflowId: string): string =>
  `no run "${workflowId}" (check the id with \`${cliName()} runs\`)`;
