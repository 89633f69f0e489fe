/** The parsed JSON body of `POST /v1/chat/completions`, loosely typed: tests inspect what was really sent. */
export interface FakeChatRequestBody {
  model: string;
  messages: Array<{
    role: string;
    content?: unknown;
    tool_calls?: Array<{ id: string; [key: string]: unknown }>;
    tool_call_id?: string;
  }>;
  max_tokens?: number;
  tools?: Array<{ type: string; function: { name: string; [key: string]: unknown } }>;
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

/** How the caller authenticated; the credential itself is never recorded. */
export type FakeChatAuth = 'bearer' | 'none';

export interface RecordedChatRequest {
  method: string;
  path: string;
  /** Lower-case names; the `authorization` value is redacted. */
  headers: Record<string, string>;
  auth: FakeChatAuth;
  /** `undefined` when the body was not valid JSON. */
  body: FakeChatRequestBody | undefined;
  /** HTTP status the server answered, once it has answered. */
  status?: number;
  /** True when the connection closed before the answer was complete (the client aborted, or a reset fault). */
  clientAborted: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Parses a request body and checks what the real API rejects with a 400: missing fields, and
 * tool messages out of order (each assistant `tool_calls` must be answered by one `tool`
 * message per id, right after it). A body that parses is returned even with a problem, so the
 * recorded request shows what the client actually sent.
 */
export function parseChatRequestBody(raw: string): {
  body: FakeChatRequestBody | undefined;
  problem: string | undefined;
} {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { body: undefined, problem: 'request body is not valid JSON' };
  }
  if (!isRecord(parsed)) return { body: undefined, problem: 'request body must be a JSON object' };
  const body = parsed as FakeChatRequestBody;
  return { body, problem: problemOf(body) };
}

function problemOf(body: FakeChatRequestBody): string | undefined {
  if (typeof body.model !== 'string' || body.model === '') return 'model (string) is required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages (non-empty array) is required';
  if (body.max_tokens !== undefined && (!Number.isInteger(body.max_tokens) || body.max_tokens < 1)) {
    return 'max_tokens must be a positive integer';
  }
  if (body.stream_options !== undefined && body.stream !== true)
    return "'stream_options' is only allowed when 'stream' is enabled";
  if (body.tool_choice !== undefined && !Array.isArray(body.tools))
    return "'tool_choice' is only allowed when 'tools' are specified";
  for (const tool of body.tools ?? []) {
    if (tool.type !== 'function' || typeof tool.function?.name !== 'string')
      return `tools must be {type:'function', function:{name,…}}`;
  }
  return toolOrderProblem(body.messages);
}

function toolOrderProblem(messages: FakeChatRequestBody['messages']): string | undefined {
  let pending = new Set<string>();
  for (const [i, message] of messages.entries()) {
    if (!isRecord(message) || typeof message.role !== 'string') return `messages[${i}] has no role`;
    if (message.role === 'tool') {
      if (typeof message.tool_call_id !== 'string' || !pending.delete(message.tool_call_id)) {
        return `messages[${i}]: a 'tool' message must answer a preceding 'tool_calls' id (got ${JSON.stringify(message.tool_call_id)})`;
      }
      continue;
    }
    if (pending.size > 0) {
      return `messages[${i}]: tool_calls ids ${[...pending].join(', ')} were not answered by 'tool' messages before this '${message.role}' message`;
    }
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      pending = new Set(message.tool_calls.map((call) => call.id));
    }
  }
  return pending.size > 0
    ? `tool_calls ids ${[...pending].join(', ')} were never answered by 'tool' messages`
    : undefined;
}
