import { ApplicationFailure } from '@temporalio/common';
import { FailureType } from '../../domain';
import type { Redactor } from '../../tools/redact-secrets';

type RemoteFailureType =
  | typeof FailureType.RemoteAgentRefused
  | typeof FailureType.RemoteAgentUnreachable
  | typeof FailureType.RemoteAgentUnauthorized
  | typeof FailureType.RemoteAgentBadCard
  | typeof FailureType.RemoteAgentFailed;

/** Only an unreachable host (or one answering 5xx/429) may work on a later attempt. */
const RETRYABLE: ReadonlySet<RemoteFailureType> = new Set([FailureType.RemoteAgentUnreachable]);

/** A failure at the A2A boundary, already classified; thrown by the guarded fetch and the activities. */
export class A2aBoundaryError extends Error {
  override readonly name = 'A2aBoundaryError';
  constructor(
    readonly type: RemoteFailureType,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The longest failure message sent to history: the remote's error body is quoted, cut here. */
const MAX_MESSAGE_CHARS = 2_000;

/**
 * Classifies whatever an A2A call threw into an ApplicationFailure the workflow decides on by
 * type: the guarded fetch's own errors keep their type; anything else the SDK threw (a JSON-RPC
 * error, an answer it could not read) is the remote refusing, which a retry would repeat.
 */
export function a2aFailure(err: unknown, agent: string, redact: Redactor): ApplicationFailure {
  const classified = err instanceof A2aBoundaryError ? err : undefined;
  const type = classified?.type ?? FailureType.RemoteAgentFailed;
  const text = err instanceof Error ? err.message : String(err);
  const message = String(redact(`Remote agent ${agent}: ${text}`)).slice(0, MAX_MESSAGE_CHARS);
  return ApplicationFailure.create({ type, message, nonRetryable: !RETRYABLE.has(type) });
}
