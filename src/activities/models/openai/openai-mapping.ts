import { randomBytes } from 'node:crypto';
import type { AssistantBlock, ModelMessage, ModelReply, ModelRequest, TokenUsage } from '../../../domain';
import type { ChatCompletion, ChatCompletionRequest, ChatMessage, ChatUsage } from './openai-wire';

/**
 * Pure translation between Thoughtline's provider-neutral wire format and the Chat Completions
 * API. No I/O; ids are random where a server sends none (this runs in an activity, not a workflow).
 */

/** A mapped reply, before the provider adds cost and duration. */
export type MappedReply = Omit<ModelReply, 'costUsd' | 'durationMs'>;

/**
 * Tool-call arguments that are not a JSON object (broken or truncated JSON, an array, a number)
 * become `{ unparsedArguments: '<the raw text>' }`. The workflow validates every call against
 * the tool's schema, and tool schemas forbid unknown keys, so the model gets the validation
 * error as an observation next turn instead of the run failing or retrying a deterministic model.
 */
export const UNPARSED_ARGUMENTS_KEY = 'unparsedArguments';

export function toChatCompletionRequest(request: ModelRequest, stream: boolean): ChatCompletionRequest {
  const messages: ChatMessage[] = request.system === '' ? [] : [{ role: 'system', content: request.system }];
  for (const message of request.messages) messages.push(...toChatMessages(message));
  const body: ChatCompletionRequest = { model: request.model, messages, max_tokens: request.maxTokens };
  // Servers reject tool_choice without tools, and an empty tool list adds nothing. 'auto' is the
  // default once tools are present, so only 'none' is sent.
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: { ...tool.inputSchema, type: 'object' } },
    }));
    if (request.toolChoice === 'none') body.tool_choice = 'none';
  }
  if (request.stopSequences && request.stopSequences.length > 0) body.stop = request.stopSequences;
  const sampling = request.sampling ?? {};
  if (sampling.temperature !== undefined) body.temperature = sampling.temperature;
  if (sampling.topP !== undefined) body.top_p = sampling.topP;
  // Not in OpenAI's own API, but Ollama, vLLM, llama.cpp and LM Studio take it; OpenAI answers 400.
  if (sampling.topK !== undefined) body.top_k = sampling.topK;
  if (sampling.seed !== undefined) body.seed = sampling.seed;
  if (stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}

/**
 * One neutral message may become several Chat messages: each tool_result is its own `tool`
 * message, placed before any user text so it directly follows the assistant's `tool_calls`.
 * `isError` has no wire field; the workflow's error results say so in their text.
 * Thinking blocks are dropped: they carry Anthropic signatures no other server understands.
 */
export function toChatMessages(message: ModelMessage): ChatMessage[] {
  if (message.role === 'assistant') {
    const text = message.content.flatMap((b) => (b.type === 'text' && b.text !== '' ? [b.text] : [])).join('\n');
    const calls = message.content.flatMap((b) =>
      b.type === 'tool_use'
        ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.input) } }]
        : [],
    );
    if (calls.length === 0) return [{ role: 'assistant', content: text }];
    return [{ role: 'assistant', content: text === '' ? null : text, tool_calls: calls }];
  }
  const out: ChatMessage[] = [];
  const texts: string[] = [];
  for (const block of message.content) {
    if (block.type === 'tool_result') out.push({ role: 'tool', tool_call_id: block.toolUseId, content: block.content });
    else if (block.text !== '') texts.push(block.text);
  }
  if (texts.length > 0) out.push({ role: 'user', content: texts.join('\n') });
  return out;
}

/** A reply's parts as they arrived, from a whole completion or assembled from stream chunks. */
export interface AssembledReply {
  model: string;
  text: string;
  toolCalls: Array<{ id?: string | null; name: string; arguments?: string | Record<string, unknown> | null }>;
  finishReason: string | null | undefined;
  usage: ChatUsage | null | undefined;
}

/** `undefined` when the completion has no choice to read. */
export function fromChatCompletion(completion: ChatCompletion, requestModel: string): MappedReply | undefined {
  const choice = completion.choices[0];
  if (choice === undefined) return undefined;
  const { message } = choice;
  return toMappedReply({
    model: completion.model || requestModel,
    // A refusal is the model's answer too; servers send it instead of content.
    text: message.content || message.refusal || '',
    toolCalls: (message.tool_calls ?? []).map((call) => ({ id: call.id, ...call.function })),
    finishReason: choice.finish_reason,
    usage: completion.usage,
  });
}

export function toMappedReply(reply: AssembledReply): MappedReply {
  const content: AssistantBlock[] = reply.text === '' ? [] : [{ type: 'text', text: reply.text }];
  for (const call of reply.toolCalls) {
    content.push({
      type: 'tool_use',
      id: call.id || newToolCallId(),
      name: call.name,
      input: parseArguments(call.arguments),
    });
  }
  return {
    content,
    stopReason: toStopReason(reply.finishReason, reply.toolCalls.length > 0),
    model: reply.model,
    usage: toTokenUsage(reply.usage),
  };
}

const STOP_REASONS: Readonly<Record<string, string>> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
  content_filter: 'refusal',
};

/**
 * Chat finish reasons in the Anthropic vocabulary the loop speaks. `stop` with tool calls is
 * `tool_use` (some local servers report it so); an absent reason is `unknown`, which means
 * incomplete; reasons not listed pass through unchanged.
 */
export function toStopReason(finishReason: string | null | undefined, hasToolCalls: boolean): string {
  if (finishReason === null || finishReason === undefined || finishReason === '') return 'unknown';
  if (finishReason === 'stop' && hasToolCalls) return 'tool_use';
  return STOP_REASONS[finishReason] ?? finishReason;
}

const count = (value: number | null | undefined): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;

/** `prompt_tokens` includes the cached ones; they are split out so cost never counts them twice. */
export function toTokenUsage(usage: ChatUsage | null | undefined): TokenUsage {
  const prompt = count(usage?.prompt_tokens);
  const cached = Math.min(count(usage?.prompt_tokens_details?.cached_tokens), prompt);
  return {
    inputTokens: prompt - cached,
    outputTokens: count(usage?.completion_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Empty arguments mean none (some servers send `""` for a tool without parameters). */
export function parseArguments(raw: string | Record<string, unknown> | null | undefined): Record<string, unknown> {
  if (raw === null || raw === undefined) return {};
  if (typeof raw !== 'string') return raw;
  if (raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isRecord(parsed)) return parsed;
  } catch {
    // Falls through: kept as text for the model to see.
  }
  return { [UNPARSED_ARGUMENTS_KEY]: raw };
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** For servers that send a call without an id: the tool_result must still name the call. */
function newToolCallId(): string {
  let out = 'call_';
  for (const byte of randomBytes(24)) out += BASE62[byte % BASE62.length];
  return out;
}
