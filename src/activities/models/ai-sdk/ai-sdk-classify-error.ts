import { ApplicationFailure } from '@temporalio/common';
import { FailureType } from '../../../domain';
import { classifyStatus, decideOnStatus, type StatusClass } from '../http-status-table';
import { messageChain } from '../anthropic/anthropic-classify-error';
import { createTextRedactor } from '../openai/openai-classify-error';

/**
 * Turns what an AI SDK model throws, or sends as a stream `error` part, into an
 * `ApplicationFailure` with a stable `FailureType` and an explicit retry decision, once, where the
 * activity ends. Nothing retries inside the adapter (the AI SDK's retries live in `streamText`,
 * which is not used): Temporal's retry policy acts on this decision. Key-shaped text is masked.
 */

// AI SDK errors carry `Symbol.for('vercel.ai.error.<name>')` so they are recognised across package
// copies; the same test as the SDK's own `isInstance`, without loading the ESM package.
const isAiSdkError = (error: unknown, name: string): error is Error & Record<string, unknown> =>
  error instanceof Error &&
  (error as unknown as Record<symbol, unknown>)[Symbol.for(`vercel.ai.error.${name}`)] === true;

// OpenAI answers 503 when overloaded; Anthropic 529 (in the shared table).
const AI_SDK_STATUSES: Readonly<Record<number, StatusClass>> = { 503: [FailureType.ModelOverloaded, false] };

const redact = createTextRedactor(undefined);
const failure = (type: FailureType, nonRetryable: boolean, message: string, cause?: unknown): ApplicationFailure =>
  ApplicationFailure.create({
    type,
    nonRetryable,
    message: redact(message),
    ...(cause instanceof Error ? { cause } : {}),
  });

export function classifyAiSdkError(error: unknown, providerName: string, now: number = Date.now()): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  if (isAiSdkError(error, 'AI_APICallError')) return classifyApiCallError(error, providerName, now);
  if (isAiSdkError(error, 'AI_LoadAPIKeyError') || isAiSdkError(error, 'AI_LoadSettingError')) {
    // A missing key or setting in the worker's environment: every attempt would miss it too.
    return failure(FailureType.ModelAuthentication, true, `${providerName} is not configured: ${error.message}`);
  }
  if (isAiSdkError(error, 'AI_NoSuchModelError')) {
    return failure(FailureType.ModelNotFound, true, `${providerName}: ${error.message}`);
  }
  if (
    isAiSdkError(error, 'AI_InvalidPromptError') ||
    isAiSdkError(error, 'AI_InvalidArgumentError') ||
    isAiSdkError(error, 'AI_UnsupportedFunctionalityError')
  ) {
    // The model refused the call's shape before sending it: the same call is refused again.
    return failure(FailureType.ModelBadRequest, true, `${providerName} refused the call: ${error.message}`);
  }
  if (
    isAiSdkError(error, 'AI_JSONParseError') ||
    isAiSdkError(error, 'AI_TypeValidationError') ||
    isAiSdkError(error, 'AI_InvalidResponseDataError') ||
    isAiSdkError(error, 'AI_EmptyResponseBodyError')
  ) {
    // A 200 whose body could not be read as a reply: usually a proxy or a restart; a retry asks again.
    return failure(FailureType.ModelBadResponse, false, `${providerName} reply unreadable: ${error.message}`, error);
  }
  if (isStreamErrorPayload(error)) return classifyStreamError(error, providerName);
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    // Not our signal (the provider rethrows that): a timeout set inside the model's own fetch.
    return failure(FailureType.ModelTimeout, false, `${providerName} call timed out: ${error.message}`);
  }
  if (error instanceof TypeError) {
    // fetch's "fetch failed" / "terminated": the connection, not the request, is at fault.
    return failure(
      FailureType.ModelConnectionError,
      false,
      `${providerName} connection failed: ${messageChain(error)}`,
      error,
    );
  }
  // Thrown in-process before any answer (a provider's own validation, a bug in a custom model):
  // retrying would repeat it.
  const message = error instanceof Error ? error.message : String(error);
  return failure(FailureType.ModelBadRequest, true, `${providerName} call failed before a reply: ${message}`, error);
}

/** An HTTP answer with an error status, or a connection that failed before one (no status). */
function classifyApiCallError(
  error: Error & Record<string, unknown>,
  providerName: string,
  now: number,
): ApplicationFailure {
  const status = typeof error.statusCode === 'number' ? error.statusCode : undefined;
  if (status === undefined) {
    // "Cannot connect to API: …": the SDK marks transport failures retryable.
    return error.isRetryable === false
      ? failure(FailureType.ModelBadRequest, true, `${providerName} request could not be sent: ${error.message}`)
      : failure(FailureType.ModelConnectionError, false, `${providerName} connection failed: ${messageChain(error)}`);
  }
  if (status < 400) {
    // A 200 whose body broke while being read ("Failed to process successful response"): a cut
    // connection underneath is an incomplete stream, anything else an unreadable reply. Either is
    // usually a proxy or a restart, and a retry asks again.
    const cut = causes(error).some((cause) => cause instanceof TypeError);
    return failure(
      cut ? FailureType.ModelStreamIncomplete : FailureType.ModelBadResponse,
      false,
      `${providerName} ${status} reply ${cut ? 'cut off' : 'unreadable'}: ${messageChain(error)}`,
    );
  }
  const headers = new Headers(isStringRecord(error.responseHeaders) ? error.responseHeaders : {});
  const details: Record<string, unknown> = { status };
  const requestId = headers.get('x-request-id') ?? headers.get('request-id');
  if (requestId !== null) details.requestId = redact(requestId);
  // Our table, not the SDK's `isRetryable`: the same decisions as the native providers, with
  // `x-should-retry` and the server's retry-after honoured.
  return ApplicationFailure.create({
    ...decideOnStatus(classifyStatus(status, AI_SDK_STATUSES), headers, now),
    message: redact(`${providerName} ${status}: ${error.message}`),
    details: [details],
  });
}

/** A stream `error` part: a provider's `{ message, type?, statusCode?, isRetryable? }`, or an Error. */
interface StreamErrorPayload {
  message: string;
  type?: unknown;
  statusCode?: unknown;
  isRetryable?: unknown;
}

const isStreamErrorPayload = (value: unknown): value is StreamErrorPayload =>
  typeof value === 'object' &&
  value !== null &&
  !(value instanceof Error) &&
  typeof (value as { message?: unknown }).message === 'string';

/**
 * An error sent inside a 200 stream. A status the provider inferred (Anthropic's
 * `overloaded_error` is 529) decides as it would over HTTP; otherwise the provider's own
 * `isRetryable: false` is final, and anything else broke the reply off mid-way and is retried.
 */
export function classifyStreamError(payload: unknown, providerName: string): ApplicationFailure {
  if (payload instanceof ApplicationFailure) return payload;
  if (!isStreamErrorPayload(payload)) {
    if (payload instanceof Error && payload.name.startsWith('AI_')) return classifyAiSdkError(payload, providerName);
    const text = payload instanceof Error ? messageChain(payload) : (JSON.stringify(payload) ?? String(payload));
    return failure(FailureType.ModelStreamIncomplete, false, `${providerName} stream error: ${text}`);
  }
  const kind = typeof payload.type === 'string' ? ` (${payload.type})` : '';
  const message = `${providerName} stream error${kind}: ${payload.message}`;
  if (typeof payload.statusCode === 'number' && payload.statusCode >= 400) {
    const [type, nonRetryable] = classifyStatus(payload.statusCode, AI_SDK_STATUSES);
    return failure(type, nonRetryable, message);
  }
  if (payload.isRetryable === false) return failure(FailureType.ModelBadRequest, true, message);
  return failure(FailureType.ModelStreamIncomplete, false, message);
}

const isStringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'string');

function causes(error: Error): unknown[] {
  const out: unknown[] = [];
  for (let e: unknown = error.cause; e !== undefined && out.length < 4; e = e instanceof Error ? e.cause : undefined) {
    out.push(e);
  }
  return out;
}
