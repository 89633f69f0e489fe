import type { FakeRequestBody } from './recorded-request';

/**
 * What the fake Messages server answers, one script entry per request. Replies are plain data
 * (so a script can be printed and compared); the server turns them into wire JSON, adding ids,
 * the echoed model and a request-id header.
 */
export interface FakeTextBlock {
  type: 'text';
  text: string;
}
export interface FakeToolUseBlock {
  type: 'tool_use';
  name: string;
  input: Record<string, unknown>;
  /** Generated (`toolu_01…`) when absent. */
  id?: string;
}
export type FakeContentBlock = FakeTextBlock | FakeToolUseBlock;

/** Wire usage fields; `null` is allowed where the real API may send null. */
export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number | null;
  cache_read_input_tokens: number | null;
}

interface ReplyTiming {
  /** Wait this long before answering; the wait ends early (no answer) if the client disconnects. */
  delayMs?: number;
}

export interface MessageReplyOptions extends ReplyTiming {
  /** Defaults to `tool_use` when a tool_use block is present, else `end_turn`. `null` mimics an incomplete reply. */
  stopReason?: string | null;
  usage?: Partial<FakeUsage>;
  /** Defaults to the request's `model`, as the real API echoes it. */
  model?: string;
}

export interface FakeMessageReply extends ReplyTiming {
  kind: 'message';
  content: FakeContentBlock[];
  stopReason: string | null;
  usage: Partial<FakeUsage>;
  model?: string;
}

export interface FakeErrorReply extends ReplyTiming {
  kind: 'error';
  status: number;
  /** Anthropic `error.type`, e.g. `rate_limit_error`. */
  errorType: string;
  message: string;
  headers: Record<string, string>;
}

export type FakeReply = FakeMessageReply | FakeErrorReply;

/** A canned reply, or a function of the parsed request body (for replies that depend on it). */
export type ScriptEntry = FakeReply | ((body: FakeRequestBody) => FakeReply | Promise<FakeReply>);

export const textBlock = (text: string): FakeTextBlock => ({ type: 'text', text });

export const toolUseBlock = (
  name: string,
  input: Record<string, unknown>,
  id?: string,
): FakeToolUseBlock => (id === undefined ? { type: 'tool_use', name, input } : { type: 'tool_use', name, input, id });

/** Any mix of blocks; the general form behind `text` and `toolUse`. */
export function message(content: FakeContentBlock[], options: MessageReplyOptions = {}): FakeMessageReply {
  const hasToolUse = content.some((block) => block.type === 'tool_use');
  const reply: FakeMessageReply = {
    kind: 'message',
    content,
    stopReason: options.stopReason === undefined ? (hasToolUse ? 'tool_use' : 'end_turn') : options.stopReason,
    usage: options.usage ?? {},
  };
  if (options.model !== undefined) reply.model = options.model;
  if (options.delayMs !== undefined) reply.delayMs = options.delayMs;
  return reply;
}

/** A final answer: one text block, `end_turn`. */
export const text = (value: string, options: MessageReplyOptions = {}): FakeMessageReply =>
  message([textBlock(value)], options);

/** One tool call, optionally preceded by the model's reasoning text; `tool_use`. */
export function toolUse(
  name: string,
  input: Record<string, unknown>,
  options: MessageReplyOptions & { id?: string; text?: string } = {},
): FakeMessageReply {
  const { id, text: preamble, ...rest } = options;
  const blocks: FakeContentBlock[] = preamble === undefined ? [] : [textBlock(preamble)];
  blocks.push(toolUseBlock(name, input, id));
  return message(blocks, rest);
}

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

export function httpError(status: number, options: HttpErrorOptions = {}): FakeErrorReply {
  const [defaultType, defaultMessage] = ERROR_TYPES[status] ?? ['api_error', `HTTP ${status}`];
  const headers: Record<string, string> = {};
  if (options.retryAfter !== undefined) headers['retry-after'] = String(options.retryAfter);
  if (options.retryAfterMs !== undefined) headers['retry-after-ms'] = String(options.retryAfterMs);
  if (options.shouldRetry !== undefined) headers['x-should-retry'] = String(options.shouldRetry);
  if (options.requestId !== undefined) headers['request-id'] = options.requestId;
  Object.assign(headers, options.headers);
  const reply: FakeErrorReply = {
    kind: 'error',
    status,
    errorType: options.type ?? defaultType,
    message: options.message ?? defaultMessage,
    headers,
  };
  if (options.delayMs !== undefined) reply.delayMs = options.delayMs;
  return reply;
}

/** One line per entry, for failure messages. */
export function describeEntry(entry: ScriptEntry): string {
  if (typeof entry === 'function') return `function ${entry.name || '(anonymous)'}`;
  if (entry.kind === 'error') return `httpError(${entry.status}, ${entry.errorType})`;
  const blocks = entry.content.map((b) => (b.type === 'text' ? `text(${JSON.stringify(b.text.slice(0, 40))})` : `toolUse(${b.name})`));
  return `message[${blocks.join(', ')}]`;
}
