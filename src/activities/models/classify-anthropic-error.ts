import { AnthropicError, APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ApplicationFailure } from '@temporalio/common';
import { FailureType } from '../../shared';

/**
 * Turns anything an Anthropic SDK call throws into an `ApplicationFailure` with a stable
 * `FailureType` and an explicit retry decision, once, where the activity ends. The client runs
 * with `maxRetries: 0`, so this decision is the only retry policy: Temporal acts on it.
 * Messages come from the API's error body; credentials never appear (the API does not echo
 * them, and key-shaped strings are masked anyway).
 */

// Statuses whose retry decision matches the SDK's own `shouldRetry` defaults.
const BY_STATUS: Record<number, [FailureType, nonRetryable: boolean]> = {
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

function classifyStatus(status: number): [FailureType, boolean] {
  const known = BY_STATUS[status];
  if (known !== undefined) return known;
  if (status >= 500) return [FailureType.ModelServerError, false];
  // Other 4xx (402 billing, 422, …): the request itself is at fault, retrying repeats it.
  return [FailureType.ModelBadRequest, true];
}

/** `retry-after-ms` (ms) wins over `retry-after` (seconds or an HTTP date), as in the SDK. */
export function retryDelayMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms > 0) return ms;
  const retryAfter = headers?.get('retry-after');
  if (retryAfter === null || retryAfter === undefined) return undefined;
  const seconds = Number.parseFloat(retryAfter);
  const delay = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - now;
  return Number.isFinite(delay) && delay > 0 ? Math.ceil(delay) : undefined;
}

// Anthropic key and token shapes; masked wherever text could carry one.
const redact = (text: string): string => text.replace(/sk-ant-[A-Za-z0-9_-]+/g, 'sk-ant-[redacted]');

export function classifyAnthropicError(error: unknown, options: { now?: number } = {}): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;

  // Checked before APIError: both extend it with no status. Our own signal firing never gets
  // here (the provider rethrows the cancellation reason); anything else is a transport problem.
  if (error instanceof APIConnectionError || error instanceof APIUserAbortError) {
    return ApplicationFailure.create({
      type: FailureType.ModelConnectionError,
      nonRetryable: false,
      message: redact(`Anthropic API connection failed: ${error.message}`),
    });
  }

  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const [type, nonRetryableByStatus] = classifyStatus(status);
    // The server's explicit decision overrides the status, as the SDK itself honours it.
    const shouldRetry = error.headers?.get('x-should-retry');
    const nonRetryable = shouldRetry === 'false' ? true : shouldRetry === 'true' ? false : nonRetryableByStatus;
    const delay = nonRetryable ? undefined : retryDelayMs(error.headers, options.now);
    const details: Record<string, unknown> = { status };
    if (error.type) details.apiErrorType = error.type;
    if (error.requestID) details.requestId = error.requestID;
    return ApplicationFailure.create({
      type,
      nonRetryable,
      // apiMessage is the body's error.message; error.message would be "429 {json}".
      message: redact(`Anthropic API ${status}: ${error.apiMessage ?? error.message}`),
      ...(delay === undefined ? {} : { nextRetryDelay: delay }),
      details: [details],
    });
  }

  // Raised in-process before any response: SDK validation (AnthropicError, e.g. "streaming is
  // required" for a large max_tokens) or a missing credential (a plain Error from the SDK's
  // header check). Retrying would repeat it.
  const message = error instanceof Error ? error.message : String(error);
  const missingCredential = /could not resolve authentication/i.test(message);
  return ApplicationFailure.create({
    type: missingCredential ? FailureType.ModelAuthentication : FailureType.ModelBadRequest,
    nonRetryable: true,
    message: redact(`Anthropic call failed before a response${error instanceof AnthropicError ? ' (SDK)' : ''}: ${message}`),
    ...(error instanceof Error ? { cause: error } : {}),
  });
}
