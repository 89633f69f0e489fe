import type { FakeRequestBody } from './recorded-request';

/**
 * What the fake Messages server answers, one script entry per request. Replies are plain data
 * (so a script can be printed and compared); the server turns them into wire JSON or SSE events,
 * adding ids, the echoed model and a request-id header. Faults are built in `fake-faults.ts`.
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
  /**
   * The model ran out of tokens after this many characters of the input JSON: a stream stops
   * its `input_json_delta`s there; a non-streamed reply carries `input: {}`.
   */
  inputCutAt?: number;
}
export interface FakeThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}
export interface FakeRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}
export type FakeContentBlock = FakeTextBlock | FakeToolUseBlock | FakeThinkingBlock | FakeRedactedThinkingBlock;

/** Wire usage fields; `null` is allowed where the real API may send null. */
export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number | null;
  cache_read_input_tokens: number | null;
}

export interface ReplyTiming {
  /** Wait this long before answering; the wait ends early (no answer) if the client disconnects. */
  delayMs?: number;
  /** When streamed, pause this long between SSE events, so watchers see a reply arrive in pieces. */
  eventGapMs?: number;
}

export interface MessageReplyOptions extends ReplyTiming {
  /** Defaults to `tool_use` when a tool_use block is present, else `end_turn`. `null` mimics an incomplete reply. */
  stopReason?: string | null;
  /** The stop sequence the model met; set it with `stopReason: 'stop_sequence'`, as the API does. */
  stopSequence?: string;
  usage?: Partial<FakeUsage>;
  /** Defaults to the request's `model`, as the real API echoes it. */
  model?: string;
}

/** A reply the API completed; streamed as SSE when the request says `stream: true`, else one JSON body. */
export interface FakeMessageReply extends ReplyTiming {
  kind: 'message';
  content: FakeContentBlock[];
  stopReason: string | null;
  stopSequence?: string;
  usage: Partial<FakeUsage>;
  model?: string;
}

/** An HTTP error with the Anthropic error body. */
export interface FakeErrorReply extends ReplyTiming {
  kind: 'error';
  status: number;
  /** Anthropic `error.type`, e.g. `rate_limit_error`. */
  errorType: string;
  message: string;
  headers: Record<string, string>;
}

/** A body that is not the API's JSON, e.g. the HTML error page of a proxy. */
export interface FakeRawReply extends ReplyTiming {
  kind: 'raw';
  status: number;
  contentType: string;
  body: string;
  headers: Record<string, string>;
}

/** How a broken reply goes wrong once `afterEvents` events are out. */
export type FakeFault =
  { type: 'hang' } | { type: 'reset' } | { type: 'eof' } | { type: 'error_event'; errorType: string; message: string };

/**
 * A reply that breaks partway. Streamed: `afterEvents` SSE events of `reply` are sent (never its
 * `message_stop`), then the fault. Not streamed: the headers and half of the JSON body go out
 * first, except that a hang or reset with `afterEvents: 0` happens before the status line, and an
 * `error_event` is answered as the HTTP error of its type, as the API does for non-streamed calls.
 */
export interface FakeBrokenReply extends ReplyTiming {
  kind: 'broken';
  reply: FakeMessageReply;
  afterEvents: number;
  fault: FakeFault;
}

export type FakeReply = FakeMessageReply | FakeErrorReply | FakeRawReply | FakeBrokenReply;

/** A canned reply, or a function of the parsed request body (for replies that depend on it). */
export type ScriptEntry = FakeReply | ((body: FakeRequestBody) => FakeReply | Promise<FakeReply>);

export const textBlock = (text: string): FakeTextBlock => ({ type: 'text', text });

export const toolUseBlock = (name: string, input: Record<string, unknown>, id?: string): FakeToolUseBlock =>
  id === undefined ? { type: 'tool_use', name, input } : { type: 'tool_use', name, input, id };

export const thinkingBlock = (thinking: string, signature: string): FakeThinkingBlock => ({
  type: 'thinking',
  thinking,
  signature,
});

export const redactedThinkingBlock = (data: string): FakeRedactedThinkingBlock => ({ type: 'redacted_thinking', data });

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
  if (options.stopSequence !== undefined) reply.stopSequence = options.stopSequence;
  if (options.delayMs !== undefined) reply.delayMs = options.delayMs;
  if (options.eventGapMs !== undefined) reply.eventGapMs = options.eventGapMs;
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

/**
 * A tool call cut by `max_tokens` partway through its input JSON (by default halfway): the reply
 * ends with that block and `stop_reason: max_tokens`.
 */
export function maxTokensInToolUse(
  name: string,
  input: Record<string, unknown>,
  options: Omit<MessageReplyOptions, 'stopReason'> & { id?: string; text?: string; cutAt?: number } = {},
): FakeMessageReply {
  const { cutAt, ...rest } = options;
  const reply = toolUse(name, input, { ...rest, stopReason: 'max_tokens' });
  const call = reply.content.at(-1) as FakeToolUseBlock;
  call.inputCutAt = cutAt ?? Math.floor(JSON.stringify(input).length / 2);
  return reply;
}

const describeBlock = (b: FakeContentBlock): string =>
  b.type === 'text'
    ? `text(${JSON.stringify(b.text.slice(0, 40))})`
    : b.type === 'tool_use'
      ? `toolUse(${b.name})`
      : b.type;

/** One line per entry, for failure messages. */
export function describeEntry(entry: ScriptEntry): string {
  if (typeof entry === 'function') return `function ${entry.name || '(anonymous)'}`;
  switch (entry.kind) {
    case 'error':
      return `httpError(${entry.status}, ${entry.errorType})`;
    case 'raw':
      return `raw(${entry.status}, ${entry.contentType})`;
    case 'broken':
      return describeFault(entry);
    case 'message':
      return `message[${entry.content.map(describeBlock).join(', ')}]`;
  }
}

/** E.g. `socket reset after 4 events`; also what a recorded request shows as its fault. */
export function describeFault(reply: FakeBrokenReply): string {
  const what =
    reply.fault.type === 'error_event'
      ? `error event ${reply.fault.errorType}`
      : reply.fault.type === 'reset'
        ? 'socket reset'
        : reply.fault.type;
  return `${what} after ${reply.afterEvents} events`;
}
