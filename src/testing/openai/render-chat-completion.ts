import type { FakeChatReply, FakeChatUsage } from './fake-openai-replies';
import { newCompletionId, newToolCallId } from './fake-openai-ids';

/**
 * Wire JSON of Chat Completions replies, shaped as OpenAI documents `chat.completion` and
 * `chat.completion.chunk`. Rendering is separate from transport: the server sends the whole
 * object, or the chunks as SSE `data:` lines and decides how the stream ends.
 */
export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

// Small non-zero defaults so usage code paths see real numbers when a test does not care.
const DEFAULT_USAGE: FakeChatUsage = { prompt_tokens: 10, completion_tokens: 5, cached_tokens: 0 };

function renderUsage(usage: Partial<FakeChatUsage>): WireUsage {
  const { prompt_tokens, completion_tokens, cached_tokens } = { ...DEFAULT_USAGE, ...usage };
  const wire: WireUsage = { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
  if (cached_tokens !== null) wire.prompt_tokens_details = { cached_tokens };
  return wire;
}

interface Resolved {
  id: string;
  created: number;
  model: string;
  calls: Array<{ id: string; name: string; arguments: string }>;
}

function resolve(reply: FakeChatReply, requestModel: string): Resolved {
  return {
    id: newCompletionId(),
    created: Math.floor(Date.now() / 1000),
    model: reply.model ?? requestModel,
    calls: reply.toolCalls.map((call) => ({
      id: call.id ?? newToolCallId(),
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    })),
  };
}

const wireCall = (call: Resolved['calls'][number]) => ({
  id: call.id,
  type: 'function' as const,
  function: { name: call.name, arguments: call.arguments },
});

export function renderCompletion(reply: FakeChatReply, requestModel: string): Record<string, unknown> {
  const r = resolve(reply, requestModel);
  const message: Record<string, unknown> = { role: 'assistant', content: reply.content, refusal: null };
  if (reply.reasoning !== undefined) message.reasoning_content = reply.reasoning;
  if (r.calls.length > 0) message.tool_calls = r.calls.map(wireCall);
  const completion: Record<string, unknown> = {
    id: r.id,
    object: 'chat.completion',
    created: r.created,
    model: r.model,
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finishReason }],
  };
  if (reply.usage !== null) completion.usage = renderUsage(reply.usage);
  return completion;
}

/** The chunks of a streamed reply, in the parts the server sends or withholds to make a fault. */
export interface RenderedStream {
  /** Role, content fragments, tool-call fragments. */
  deltas: Array<Record<string, unknown>>;
  /** The empty delta carrying `finish_reason`. */
  finish: Record<string, unknown>;
  /** The usage-only chunk (`choices: []`), when the request asked for it and the reply has usage. */
  usage: Record<string, unknown> | undefined;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * Where a stream reports usage: `openai` in a last chunk of its own, only when the request asks
 * (`stream_options.include_usage`); `finish-chunk` on the finish chunk, always (Mistral);
 * `x_groq` in the finish chunk's `x_groq.usage`, always (Groq).
 */
export type StreamUsageDialect = 'openai' | 'finish-chunk' | 'x_groq';

export function renderChunks(
  reply: FakeChatReply,
  requestModel: string,
  includeUsage: boolean,
  dialect: StreamUsageDialect = 'openai',
): RenderedStream {
  const r = resolve(reply, requestModel);
  const size = Math.max(1, reply.chunkSize);
  // With include_usage every chunk carries `usage: null` until the last one, as OpenAI sends it.
  const chunk = (choices: unknown[], usage?: WireUsage) => ({
    id: r.id,
    object: 'chat.completion.chunk',
    created: r.created,
    model: r.model,
    system_fingerprint: 'fp_fake',
    choices,
    ...(includeUsage ? { usage: usage ?? null } : {}),
  });
  const delta = (value: Record<string, unknown>, finishReason: string | null = null) =>
    chunk([{ index: 0, delta: value, logprobs: null, finish_reason: finishReason }]);

  const deltas = [delta({ role: 'assistant', content: '', refusal: null })];
  for (const piece of pieces(reply.reasoning ?? '', size)) deltas.push(delta({ reasoning_content: piece }));
  for (const piece of pieces(reply.content ?? '', size)) deltas.push(delta({ content: piece }));
  r.calls.forEach((call, index) => {
    deltas.push(
      delta({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const piece of pieces(call.arguments, size))
      deltas.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  const finish = delta({}, reply.finishReason);
  if (dialect !== 'openai' && reply.usage !== null) {
    const usage = renderUsage(reply.usage);
    return {
      deltas,
      finish: { ...finish, ...(dialect === 'x_groq' ? { x_groq: { usage } } : { usage }) },
      usage: undefined,
    };
  }
  return {
    deltas,
    finish,
    usage: includeUsage && reply.usage !== null ? chunk([], renderUsage(reply.usage)) : undefined,
  };
}
