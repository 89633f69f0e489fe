import type { FakeChatRequestBody } from './recorded-chat-request';

/**
 * What the fake OpenAI-compatible server answers, one script entry per request. Replies are plain
 * data (a script can be printed and compared); the server renders them as a whole completion or
 * as SSE chunks, depending on the request's `stream`. Builder names match the fake Messages
 * server's (`text`, `toolUse`, `message`, `httpError`), plus transport faults.
 */
export interface FakeToolCall {
  name: string;
  /** An object is sent as its JSON text; a string is sent as is (e.g. broken JSON). */
  arguments: Record<string, unknown> | string;
  /** Generated (`call_…`) when absent. */
  id?: string;
}

/** Wire usage fields; `cached_tokens: null` leaves out `prompt_tokens_details`. */
export interface FakeChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number | null;
}

/** An `{"error": …}` chunk sent mid-stream instead of the rest of the reply. */
export interface FakeStreamError {
  error: { message: string; type?: string; code?: string | number | null };
}

/**
 * How a streamed reply ends. Anything but `done` is a fault; a non-streamed request meeting one
 * is a harness mistake that `verify()` reports.
 */
export type StreamEnd = 'done' | 'eof-before-finish' | 'eof-before-done' | 'reset' | FakeStreamError;

interface ReplyTiming {
  /** Wait this long before answering; the wait ends early (no answer) if the client disconnects. */
  delayMs?: number;
}

export interface ChatReplyOptions extends ReplyTiming {
  /** Defaults to `tool_calls` when tool calls are present, else `stop`. `null` sends none. */
  finishReason?: string | null;
  /** Merged over small defaults; `null` sends no usage at all, as some local servers do. */
  usage?: Partial<FakeChatUsage> | null;
  /** Defaults to the request's `model`, as servers echo it. */
  model?: string;
  /** Characters per streamed content or arguments fragment. Default 4. */
  chunkSize?: number;
  streamEnd?: StreamEnd;
  /** Reasoning text sent before the content as `reasoning_content` (vLLM, llama.cpp style). */
  reasoning?: string;
}

export interface FakeChatReply extends ReplyTiming {
  kind: 'chat';
  /** `null` as the API sends it for a reply with only tool calls. */
  content: string | null;
  toolCalls: FakeToolCall[];
  finishReason: string | null;
  usage: Partial<FakeChatUsage> | null;
  model?: string;
  chunkSize: number;
  streamEnd: StreamEnd;
  reasoning?: string;
}

export interface FakeHttpErrorReply extends ReplyTiming {
  kind: 'error';
  status: number;
  /** Sent as JSON, or as is when a string. */
  body: unknown;
  headers: Record<string, string>;
}

/** `hang`: never answers (until the client goes away); `reset`: resets the TCP connection. */
export type FakeConnectionFault = { kind: 'hang' } | { kind: 'reset' };

export type FakeChatScriptReply = FakeChatReply | FakeHttpErrorReply | FakeConnectionFault;

/** A canned reply, or a function of the parsed request body (for replies that depend on it). */
export type ChatScriptEntry =
  FakeChatScriptReply | ((body: FakeChatRequestBody) => FakeChatScriptReply | Promise<FakeChatScriptReply>);

/** Any mix of text and tool calls; the general form behind `text` and `toolUse`. */
export function message(
  content: string | null,
  toolCalls: FakeToolCall[],
  options: ChatReplyOptions = {},
): FakeChatReply {
  const { finishReason, usage, chunkSize, streamEnd, ...rest } = options;
  return {
    kind: 'chat',
    content,
    toolCalls,
    finishReason: finishReason === undefined ? (toolCalls.length > 0 ? 'tool_calls' : 'stop') : finishReason,
    usage: usage === undefined ? {} : usage,
    chunkSize: chunkSize ?? 4,
    streamEnd: streamEnd ?? 'done',
    ...rest,
  };
}

/** A final answer: text, `stop`. */
export const text = (value: string, options: ChatReplyOptions = {}): FakeChatReply => message(value, [], options);

/** One tool call, optionally preceded by text; `tool_calls`. */
export function toolUse(
  name: string,
  args: Record<string, unknown> | string,
  options: ChatReplyOptions & { id?: string; text?: string } = {},
): FakeChatReply {
  const { id, text: preamble, ...rest } = options;
  return message(
    preamble ?? null,
    [id === undefined ? { name, arguments: args } : { name, arguments: args, id }],
    rest,
  );
}

export interface HttpErrorOptions extends ReplyTiming {
  /** `error.message`; defaults to a typical one for the status. */
  message?: string;
  /** `error.type`; defaults to the type OpenAI uses for the status. */
  type?: string;
  /** `error.code`. */
  code?: string | number | null;
  /** Replaces the whole body (e.g. another server's error shape, or non-JSON text). */
  body?: unknown;
  /** `retry-after`: seconds, or an HTTP date string. */
  retryAfter?: number | string;
  /** `retry-after-ms`: milliseconds. */
  retryAfterMs?: number;
  /** `x-should-retry`: the server's explicit retry decision. */
  shouldRetry?: boolean;
  headers?: Record<string, string>;
}

const ERROR_DEFAULTS: Readonly<Record<number, [type: string, message: string]>> = {
  400: ['invalid_request_error', 'Invalid request'],
  401: ['invalid_request_error', 'Incorrect API key provided'],
  403: ['invalid_request_error', 'You are not allowed to use this model'],
  404: ['invalid_request_error', 'The model does not exist or you do not have access to it'],
  413: ['invalid_request_error', 'Request too large'],
  422: ['invalid_request_error', 'Unprocessable request'],
  429: ['requests', 'Rate limit reached for requests'],
  500: ['server_error', 'The server had an error while processing your request'],
  503: ['server_error', 'The engine is currently overloaded, please try again later'],
};

/** An HTTP error with OpenAI's envelope `{ error: { message, type, param, code } }`. */
export function httpError(status: number, options: HttpErrorOptions = {}): FakeHttpErrorReply {
  const [defaultType, defaultMessage] = ERROR_DEFAULTS[status] ?? ['server_error', `HTTP ${status}`];
  const headers: Record<string, string> = {};
  if (options.retryAfter !== undefined) headers['retry-after'] = String(options.retryAfter);
  if (options.retryAfterMs !== undefined) headers['retry-after-ms'] = String(options.retryAfterMs);
  if (options.shouldRetry !== undefined) headers['x-should-retry'] = String(options.shouldRetry);
  Object.assign(headers, options.headers);
  const body = options.body ?? {
    error: {
      message: options.message ?? defaultMessage,
      type: options.type ?? defaultType,
      param: null,
      code: options.code ?? null,
    },
  };
  const reply: FakeHttpErrorReply = { kind: 'error', status, body, headers };
  if (options.delayMs !== undefined) reply.delayMs = options.delayMs;
  return reply;
}

/** A proxy's HTML error page: what an unreadable body looks like. */
export const nonJsonError = (
  status = 502,
  body = '<html><body><h1>502 Bad Gateway</h1></body></html>',
): FakeHttpErrorReply => httpError(status, { body, headers: { 'content-type': 'text/html' } });

/** Never answers; the request stays open until the client aborts or the server closes. */
export const hang = (): FakeConnectionFault => ({ kind: 'hang' });

/** Resets the connection before any response. */
export const socketReset = (): FakeConnectionFault => ({ kind: 'reset' });

/** Streams `partialText`, then an `{"error": …}` chunk, then ends without `[DONE]`. */
export function streamError(
  error: FakeStreamError['error'],
  options: Omit<ChatReplyOptions, 'streamEnd'> & { partialText?: string } = {},
): FakeChatReply {
  const { partialText, ...rest } = options;
  return message(partialText ?? null, [], { ...rest, streamEnd: { error } });
}

/** One line per entry, for failure messages. */
export function describeEntry(entry: ChatScriptEntry): string {
  if (typeof entry === 'function') return `function ${entry.name || '(anonymous)'}`;
  if (entry.kind === 'error') return `httpError(${entry.status})`;
  if (entry.kind === 'hang') return 'hang()';
  if (entry.kind === 'reset') return 'socketReset()';
  const parts = entry.content === null ? [] : [`text(${JSON.stringify(entry.content.slice(0, 40))})`];
  for (const call of entry.toolCalls) parts.push(`toolUse(${call.name})`);
  const end = typeof entry.streamEnd === 'string' ? entry.streamEnd : 'stream error';
  return `message[${parts.join(', ')}]${end === 'done' ? '' : ` ending ${end}`}`;
}
