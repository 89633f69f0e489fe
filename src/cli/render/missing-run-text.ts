import { UnknownRunError } from '../../client/errors/unknown-run-error';
import { cliName } from '../../client/follow/cli-name';

/**
 * The SDK's WorkflowNotFoundError, read by its name: importing @temporalio/client for `instanceof`
 * would load it in every CLI process before the command's own file (main.ts loads this first).
 */
function notFoundWorkflowId(e: Error): string | undefined {
  const { workflowId } = e as { workflowId?: unknown };
  return e.name === 'WorkflowNotFoundError' && typeof workflowId === 'string' && workflowId ? workflowId : undefined;
}

/** The run id a failure says is missing, from it or any error it wraps; undefined for other failures. */
export function missingRunId(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const notFound = notFoundWorkflowId(e);
    if (notFound !== undefined) return notFound;
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
