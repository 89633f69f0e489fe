import { ApplicationFailure } from '@temporalio/common';
import { FailureType } from '../../../domain';
import { createRedactor } from '../../../tools/redact-secrets';
import { classifyStatus, decideOnStatus, type StatusClass } from '../http-status-table';

/**
 * Turns every way a Chat Completions call can fail into an `ApplicationFailure` with a stable
 * `FailureType` and an explicit retry decision, once, where the activity ends. Nothing retries
 * inside the provider: Temporal's retry policy acts on this decision. Messages quote the server's
 * own error text; the API key (and any key-shaped or URL-credential text) never appears.
 */

/** Masks credentials in text that may reach a failure message, history or log. */
export type RedactText = (text: string) => string;

export function createTextRedactor(apiKey: string | undefined): RedactText {
  const redact = createRedactor(apiKey === undefined ? [] : [apiKey]);
  return (text) => (redact(text) as string).replace(/\/\/[^/@\s]+@/g, '//[REDACTED]@');
}

const PREFIX = 'OpenAI-compatible API';

// OpenAI answers 503 when overloaded; llama.cpp while its model is still loading.
const OPENAI_STATUSES: Readonly<Record<number, StatusClass>> = { 503: [FailureType.ModelOverloaded, false] };

function classifyOpenAIStatus(status: number): StatusClass {
  // Not an error status (a 3xx fetch did not follow): the answer is unreadable, not refused.
  if (status < 400) return [FailureType.ModelBadResponse, false];
  return classifyStatus(status, OPENAI_STATUSES);
}

interface ApiError {
  message?: string;
  type?: string;
  code?: string | number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const stringOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * Reads the error shapes servers use: `{error: {message, type, code}}` (OpenAI, Ollama,
 * llama.cpp, vLLM), `{error: "text"}`, `{message, type, code}` (older vLLM), `{detail: "text"}`
 * (FastAPI-based servers).
 */
function readApiError(payload: unknown): ApiError | undefined {
  if (!isRecord(payload)) return undefined;
  const inner = isRecord(payload.error) ? payload.error : payload;
  const message = stringOf(payload.error) ?? stringOf(inner.message) ?? stringOf(payload.detail);
  if (message === undefined) return undefined;
  const out: ApiError = { message };
  const type = stringOf(inner.type);
  if (type !== undefined) out.type = type;
  if (typeof inner.code === 'number' || stringOf(inner.code) !== undefined) out.code = inner.code as string | number;
  return out;
}

/** The start of a body, whitespace folded, for failure messages. */
export const bodySnippet = (text: string): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * How local servers say a model cannot take tools, seen in their sources: Ollama ("… does not
 * support tools"), vLLM ("\"auto\" tool choice requires --enable-auto-tool-choice …"), llama.cpp
 * ("tools param requires --jinja flag"). Only a 400 is read this way; a wrong reading costs a
 * switch to text ReAct, which every model can follow.
 */
const TOOLS_REFUSED = ['does not support tools', 'tool choice requires', 'tools param requires'];

function refusesTools(status: number, message: string | undefined): boolean {
  const text = message?.toLowerCase() ?? '';
  return status === 400 && TOOLS_REFUSED.some((phrase) => text.includes(phrase));
}

/** A non-2xx answer. The body may be anything: JSON error envelope, HTML from a proxy, empty. */
export function classifyOpenAIHttpError(
  status: number,
  headers: Headers,
  body: string,
  redact: RedactText,
  now: number = Date.now(),
): ApplicationFailure {
  const apiError = readApiError(parseJson(body));
  const contentType = headers.get('content-type') ?? 'no content-type';
  const what =
    apiError?.message ??
    (body.trim() === '' ? `empty body (${contentType})` : `unreadable body (${contentType}): ${bodySnippet(body)}`);
  const details: Record<string, unknown> = { status };
  if (apiError?.type !== undefined) details.apiErrorType = redact(apiError.type);
  if (apiError?.code !== undefined) details.apiErrorCode = apiError.code;
  const requestId = headers.get('x-request-id');
  if (requestId !== null) details.requestId = redact(requestId);
  const decided = refusesTools(status, apiError?.message)
    ? { type: FailureType.ModelToolsUnsupported, nonRetryable: true }
    : decideOnStatus(classifyOpenAIStatus(status), headers, now);
  return ApplicationFailure.create({
    ...decided,
    message: redact(`${PREFIX} ${status}: ${what}`),
    details: [details],
  });
}

/**
 * An `{error: …}` payload after a 200: a mid-stream error chunk, or a whole body some proxies
 * send. A numeric HTTP-like `code` (vLLM, llama.cpp) decides as its status would; otherwise the
 * reply broke off mid-way and is retried.
 */
export function classifyOpenAIErrorPayload(payload: unknown, redact: RedactText): ApplicationFailure {
  const apiError = readApiError(payload) ?? { message: bodySnippet(JSON.stringify(payload) ?? String(payload)) };
  const code = apiError.code;
  const details: Record<string, unknown> = { status: 200 };
  if (apiError.type !== undefined) details.apiErrorType = redact(apiError.type);
  if (code !== undefined) details.apiErrorCode = code;
  if (typeof code === 'number' && code >= 400 && code <= 599) {
    const [type, nonRetryable] = classifyOpenAIStatus(code);
    return ApplicationFailure.create({
      type,
      nonRetryable,
      message: redact(`${PREFIX} error ${code} after 200: ${apiError.message}`),
      details: [details],
    });
  }
  return ApplicationFailure.create({
    type: FailureType.ModelStreamIncomplete,
    nonRetryable: false,
    message: redact(`${PREFIX} sent an error instead of a reply: ${apiError.message}`),
    details: [details],
  });
}

function describeCause(error: Error): string {
  const cause = error.cause;
  if (!(cause instanceof Error)) return error.message;
  const code = (cause as { code?: unknown }).code;
  const parts = [typeof code === 'string' ? code : undefined, cause.message || undefined].filter(
    (p) => p !== undefined,
  );
  return parts.length > 0 ? [...new Set(parts)].join(': ') : error.message;
}

/**
 * What `fetch` throws before any response. `fetch failed` (refused, reset, DNS, TLS) is a
 * transport problem and retryable; anything else (an invalid URL, credentials in the URL)
 * would fail the same way every time.
 */
export function classifyOpenAIFetchError(error: unknown, redact: RedactText): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  if (error instanceof TypeError && error.message === 'fetch failed')
    return connectionFailure(describeCause(error), redact);
  const message = error instanceof Error ? error.message : String(error);
  return ApplicationFailure.create({
    type: FailureType.ModelBadRequest,
    nonRetryable: true,
    message: redact(`${PREFIX} request could not be sent: ${message}`),
  });
}

export const connectionFailure = (problem: string, redact: RedactText): ApplicationFailure =>
  ApplicationFailure.create({
    type: FailureType.ModelConnectionError,
    nonRetryable: false,
    message: redact(`${PREFIX} connection failed: ${problem}`),
  });

/** The stream ended or broke before `finish_reason` and `[DONE]`: a retry asks again. */
export const streamIncomplete = (problem: string, redact: RedactText): ApplicationFailure =>
  ApplicationFailure.create({
    type: FailureType.ModelStreamIncomplete,
    nonRetryable: false,
    message: redact(`${PREFIX} stream incomplete: ${problem}`),
  });

/** A 200 whose body cannot be read as a reply: retryable, it is usually a proxy or a restart. */
export const badResponse = (problem: string, redact: RedactText): ApplicationFailure =>
  ApplicationFailure.create({
    type: FailureType.ModelBadResponse,
    nonRetryable: false,
    message: redact(`${PREFIX} reply unreadable: ${problem}`),
  });
