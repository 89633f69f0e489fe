import {
  text,
  type FakeBrokenReply,
  type FakeErrorReply,
  type FakeFault,
  type FakeMessageReply,
  type FakeRawReply,
  type ReplyTiming,
} from './fake-replies';

/**
 * Script entries for the ways the real API (and what sits in front of it) fails. Each works for
 * streamed and non-streamed requests; `FakeBrokenReply` says what a fault means for each.
 */
export interface HttpErrorOptions extends ReplyTiming {
  /** Defaults to the type the real API uses for the status. */
  type?: string;
  message?: string;
  /** `retry-after`: seconds, or an HTTP date string. */
  retryAfter?: number | string;
  /** `retry-after-ms`: milliseconds. */
  retryAfterMs?: number;
  /** `x-should-retry`: the server's explicit retry decision. */
  shouldRetry?: boolean;
  /** Overrides the generated `request-id` header. */
  requestId?: string;
  headers?: Record<string, string>;
}

// Error types as the Anthropic API documents them per status.
const ERROR_TYPES: Record<number, [type: string, message: string]> = {
  400: ['invalid_request_error', 'Invalid request'],
  401: ['authentication_error', 'invalid x-api-key'],
  402: ['billing_error', 'Billing issue'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'The requested resource could not be found.'],
  408: ['timeout_error', 'Request timed out'],
  409: ['invalid_request_error', 'Conflict'],
  413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  429: ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'],
  500: ['api_error', 'Internal server error'],
  504: ['timeout_error', 'Request timed out'],
  529: ['overloaded_error', 'Overloaded'],
};

/** The HTTP status a non-streamed call gets for an error type a stream sends as an `error` event. */
const STATUS_OF_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export const statusOfErrorType = (errorType: string): number => STATUS_OF_TYPE[errorType] ?? 500;

export function httpError(status: number, options: HttpErrorOptions = {}): FakeErrorReply {
  const [defaultType, defaultMessage] = ERROR_TYPES[status] ?? ['api_error', `HTTP ${status}`];
  const headers: Record<string, string> = {};
  if (options.retryAfter !== undefined) headers['retry-after'] = String(options.retryAfter);
  if (options.retryAfterMs !== undefined) headers['retry-after-ms'] = String(options.retryAfterMs);
  if (options.shouldRetry !== undefined) headers['x-should-retry'] = String(options.shouldRetry);
  if (options.requestId !== undefined) headers['request-id'] = options.requestId;
  Object.assign(headers, options.headers);
  return withTiming<FakeErrorReply>(
    {
      kind: 'error',
      status,
      errorType: options.type ?? defaultType,
      message: options.message ?? defaultMessage,
      headers,
    },
    options,
  );
}

export interface NonJsonErrorOptions extends ReplyTiming {
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

const PROXY_PAGE = (status: number) =>
  `<html>\r\n<head><title>${status} Bad Gateway</title></head>\r\n<body>\r\n<center><h1>${status} Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n</body>\r\n</html>\r\n`;

/** An error status whose body is not JSON: by default a proxy's HTML 502 page. */
export function nonJsonError(status = 502, options: NonJsonErrorOptions = {}): FakeRawReply {
  return withTiming<FakeRawReply>(
    {
      kind: 'raw',
      status,
      contentType: options.contentType ?? 'text/html',
      body: options.body ?? PROXY_PAGE(status),
      headers: options.headers ?? {},
    },
    options,
  );
}

export interface BrokenReplyOptions extends ReplyTiming {
  /** What the server starts to send; defaults to a short text reply. */
  reply?: FakeMessageReply;
  /** SSE events sent before the fault (message_start, content_block_start and ping count). */
  afterEvents?: number;
}

// message_start, content_block_start, ping and one delta: the client has seen text arrive.
const MID_REPLY = 4;
const DEFAULT_REPLY = () => text('The weather in Paris is sunny, 21 degrees, with a light breeze from the west.');

function broken(fault: FakeFault, defaultAfter: number, options: BrokenReplyOptions): FakeBrokenReply {
  return withTiming<FakeBrokenReply>(
    {
      kind: 'broken',
      reply: options.reply ?? DEFAULT_REPLY(),
      afterEvents: options.afterEvents ?? defaultAfter,
      fault,
    },
    options,
  );
}

/** Accepts the request and never answers (by default not even the status line) until the client leaves. */
export const hang = (options: BrokenReplyOptions = {}): FakeBrokenReply => broken({ type: 'hang' }, 0, options);

/** Destroys the connection with a TCP reset, by default mid-reply. `afterEvents: 0` resets before any answer. */
export const socketReset = (options: BrokenReplyOptions = {}): FakeBrokenReply =>
  broken({ type: 'reset' }, MID_REPLY, options);

/** Ends the response cleanly but early: no `message_stop` (streamed), half a JSON body (not streamed). */
export const earlyEof = (options: BrokenReplyOptions = {}): FakeBrokenReply =>
  broken({ type: 'eof' }, MID_REPLY, options);

/** An `event: error` mid-stream (e.g. `overloaded_error`), then the end of the response. */
export function midStreamError(
  errorType = 'overloaded_error',
  options: BrokenReplyOptions & { message?: string } = {},
): FakeBrokenReply {
  const message = options.message ?? ERROR_TYPES[statusOfErrorType(errorType)]?.[1] ?? errorType;
  return broken({ type: 'error_event', errorType, message }, MID_REPLY, options);
}

function withTiming<T extends ReplyTiming>(reply: T, options: ReplyTiming): T {
  if (options.delayMs !== undefined) reply.delayMs = options.delayMs;
  return reply;
}
