import { Runtime } from '@temporalio/worker';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import { FailureType } from '../domain/run/failure-types';

/**
 * The failure for a tool's final, expected refusal (`ToolError` with `retryable: false`): the run
 * goes on with it as the call's observation, so it is no fault of the worker's. Marked BENIGN, the
 * SDK logs it at DEBUG without its stack (and counts no failed activity), and it carries no
 * frames (an expected refusal has no line to fix). It is said in one INFO line instead, its kind
 * and message, which the SDK's default logger shows and the CLI's WARN-level worker does not.
 */
export function toolRefusal(
  toolName: string,
  message: string,
  at: { workflowId?: string; details?: unknown[] },
): ApplicationFailure {
  const failure = ApplicationFailure.create({
    type: FailureType.ToolRefused,
    message,
    nonRetryable: true,
    category: ApplicationFailureCategory.BENIGN,
    ...(at.details ? { details: at.details } : {}),
  });
  failure.stack = `${FailureType.ToolRefused}: ${message}`;
  const run = at.workflowId ? `, run ${at.workflowId}` : '';
  Runtime.instance().logger.info(
    `Tool ${toolName} refused the call (${FailureType.ToolRefused}${run}): ${oneLine(message)}`,
  );
  return failure;
}

const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ');
