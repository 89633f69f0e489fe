import { FailureType } from '../../domain';
import { retryDelayMs } from './retry-delay';

/** A failure type, and whether retrying would only repeat the failure. */
export type StatusClass = readonly [type: FailureType, nonRetryable: boolean];

/**
 * What an HTTP error status means for a model call, whichever provider answered. The retry
 * decisions match the Anthropic and OpenAI SDKs' own `shouldRetry` defaults: a 4xx is the
 * request's fault and retrying repeats it, except a timeout, a conflict or a rate limit.
 */
const BY_STATUS: Readonly<Record<number, StatusClass>> = {
  400: [FailureType.ModelBadRequest, true],
  401: [FailureType.ModelAuthentication, true],
  403: [FailureType.ModelPermissionDenied, true],
  404: [FailureType.ModelNotFound, true],
  413: [FailureType.ModelRequestTooLarge, true],
  408: [FailureType.ModelTimeout, false],
  409: [FailureType.ModelConflict, false],
  429: [FailureType.ModelRateLimited, false],
  529: [FailureType.ModelOverloaded, false],
};

/** A status's class: the provider's own entry if it has one, else the shared table, else by range. */
export function classifyStatus(
  status: number,
  providerStatuses: Readonly<Record<number, StatusClass>> = {},
): StatusClass {
  const known = providerStatuses[status] ?? BY_STATUS[status];
  if (known !== undefined) return known;
  if (status >= 500) return [FailureType.ModelServerError, false];
  // Other 4xx (402 billing, 405, 415, 422, …): the request itself is at fault, retrying repeats it.
  return [FailureType.ModelBadRequest, true];
}

export interface StatusDecision {
  type: FailureType;
  nonRetryable: boolean;
  /** Only on a retryable failure whose server said how long to wait; Temporal's `nextRetryDelay`. */
  nextRetryDelay?: number;
}

/**
 * The decision for an HTTP error answer. The server's explicit `x-should-retry` overrides the
 * status's class, as both SDKs honour it; a retryable failure waits as long as the server asked.
 */
export function decideOnStatus(
  [type, nonRetryableByStatus]: StatusClass,
  headers: Headers | undefined,
  now?: number,
): StatusDecision {
  const shouldRetry = headers?.get('x-should-retry');
  const nonRetryable = shouldRetry === 'false' ? true : shouldRetry === 'true' ? false : nonRetryableByStatus;
  const delay = nonRetryable ? undefined : retryDelayMs(headers, now);
  return { type, nonRetryable, ...(delay === undefined ? {} : { nextRetryDelay: delay }) };
}
