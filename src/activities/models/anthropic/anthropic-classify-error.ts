import { AnthropicError, APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ApplicationFailure } from '@temporalio/common';
import { FailureType } from '../../../domain';
import { classifyStatus, decideOnStatus, type StatusClass } from '../http-status-table';

/**
 * Turns anything an Anthropic SDK call throws into an `ApplicationFailure` with a stable
 * `FailureType` and an explicit retry decision, once, where the activity ends. The client runs
 * with `maxRetries: 0`, so this decision is the only retry policy: Temporal acts on it.
 * Messages come from the API's error body; credentials never appear (the API does not echo
 * them, and key-shaped strings are masked anyway).
 */

// An `error` event inside a 200 stream carries only the type; each means what its status would.
const BY_ERROR_TYPE: Record<string, StatusClass> = {
  invalid_request_error: [FailureType.ModelBadRequest, true],
  authentication_error: [FailureType.ModelAuthentication, true],
  billing_error: [FailureType.ModelBadRequest, true],
  permission_error: [FailureType.ModelPermissionDenied, true],
  not_found_error: [FailureType.ModelNotFound, true],
  request_too_large: [FailureType.ModelRequestTooLarge, true],
  rate_limit_error: [FailureType.ModelRateLimited, false],
  timeout_error: [FailureType.ModelTimeout, false],
  api_error: [FailureType.ModelServerError, false],
  overloaded_error: [FailureType.ModelOverloaded, false],
};

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

  if (error instanceof APIError && error.status === undefined) return classifyStreamErrorEvent(error);

  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const details: Record<string, unknown> = { status };
    if (error.type) details.apiErrorType = error.type;
    if (error.requestID) details.requestId = error.requestID;
    if (error.error == null) details.nonJsonBody = true;
    return ApplicationFailure.create({
      ...decideOnStatus(classifyStatus(status), error.headers, options.now),
      // apiMessage is the body's error.message; error.message would be "429 {json}".
      message: redact(
        `Anthropic API ${status}: ${error.error == null ? describeNonJsonBody(error) : (error.apiMessage ?? error.message)}`,
      ),
      details: [details],
    });
  }

  // Reading the body failed after the headers (the SDK passes these through unwrapped): fetch
  // raises TypeError when the connection drops, JSON parsing SyntaxError on a cut or foreign body.
  if (error instanceof TypeError || error instanceof SyntaxError) {
    const dropped = error instanceof TypeError;
    return ApplicationFailure.create({
      type: dropped ? FailureType.ModelConnectionError : FailureType.ModelBadResponse,
      nonRetryable: false,
      message: redact(`Anthropic API reply ${dropped ? 'cut off' : 'unreadable'}: ${messageChain(error)}`),
      cause: error,
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
    message: redact(
      `Anthropic call failed before a response${error instanceof AnthropicError ? ' (SDK)' : ''}: ${message}`,
    ),
    ...(error instanceof Error ? { cause: error } : {}),
  });
}

/** An `event: error` inside a stream: no status, so the error type decides. Unknown types are retried. */
function classifyStreamErrorEvent(error: APIError): ApplicationFailure {
  const apiErrorType = error.type ?? 'unknown';
  const [type, nonRetryable] = BY_ERROR_TYPE[apiErrorType] ?? [FailureType.ModelStreamIncomplete, false];
  const details: Record<string, unknown> = { apiErrorType, midStream: true };
  if (error.requestID) details.requestId = error.requestID;
  return ApplicationFailure.create({
    type,
    nonRetryable,
    message: redact(`Anthropic API stream error (${apiErrorType}): ${error.apiMessage ?? error.message}`),
    details: [details],
  });
}

/** E.g. `non-JSON body (text/html): "<html> <head><title>502 Bad Gateway</title>…"`; usually a proxy's page. */
function describeNonJsonBody(error: APIError): string {
  const body = error.message
    .replace(/^\d{3}\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const contentType = error.headers?.get('content-type') ?? 'no content-type';
  if (body === '' || /status code \(no body\)$/.test(body)) return `empty body (${contentType})`;
  return `non-JSON body (${contentType}): ${JSON.stringify(body.length > 160 ? `${body.slice(0, 160)}…` : body)}`;
}

/** `terminated: other side closed`: the message and its causes, which name the transport problem. */
export function messageChain(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error && parts.length < 4; e = e.cause) parts.push(e.message);
  return parts.join(': ');
}
