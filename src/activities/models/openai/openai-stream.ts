import { ApplicationFailure } from '@temporalio/common';
import type { ModelCallHooks } from '../../../domain/model/model-provider';
import {
  badResponse,
  bodySnippet,
  classifyOpenAIErrorPayload,
  streamIncomplete,
  type RedactText,
} from './openai-classify-error';
import { toMappedReply, type MappedReply } from './openai-mapping';
import { readSseEvents } from './openai-sse';
import { ChatCompletionChunk, type ChatToolCallDelta, type ChatUsage } from './openai-wire';

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Assembles a streamed Chat Completion (`stream: true`, `stream_options.include_usage`) into
 * one reply. Text arrives in `delta.content`; tool calls arrive as fragments keyed by `index`,
 * the first carrying id and name, later ones appending to `arguments`; usage comes in a last
 * chunk with no choices. Heartbeats once per event; text and reasoning go to the hooks as they
 * arrive (reasoning is not kept: it has no signature to send back).
 * A reply counts only if it saw both a `finish_reason` and `data: [DONE]`; otherwise it is a
 * retryable ModelStreamIncomplete, so no tool ever runs from truncated arguments.
 */
export async function readChatStream(
  body: AsyncIterable<Uint8Array>,
  requestModel: string,
  hooks: ModelCallHooks | undefined,
  redact: RedactText,
): Promise<MappedReply> {
  let model = requestModel;
  let text = '';
  const calls = new Map<number, PartialCall>();
  let finishReason: string | undefined;
  let usage: ChatUsage | undefined;
  let done = false;

  function addToolCall(fragment: ChatToolCallDelta): void {
    // Every server seen sends `index`; without it, an id starts a new call and a bare fragment continues the last.
    const index = fragment.index ?? (fragment.id ? calls.size : Math.max(0, calls.size - 1));
    const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
    calls.set(index, call);
    if (fragment.id) call.id = fragment.id;
    if (fragment.function?.name) call.name = fragment.function.name;
    if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
  }

  try {
    for await (const sse of readSseEvents(body)) {
      hooks?.heartbeat?.();
      if (sse.data.trim() === '[DONE]') {
        done = true;
        break;
      }
      if (sse.data.trim() === '') continue;
      let json: unknown;
      try {
        json = JSON.parse(sse.data);
      } catch {
        throw badResponse(`a stream event is not JSON: ${bodySnippet(sse.data)}`, redact);
      }
      const payload = json as { error?: unknown } | null;
      if (sse.event === 'error' || (typeof payload === 'object' && payload !== null && payload.error != null)) {
        throw classifyOpenAIErrorPayload(json, redact);
      }
      const parsed = ChatCompletionChunk.safeParse(json);
      if (!parsed.success) throw badResponse(`unexpected stream chunk: ${bodySnippet(sse.data)}`, redact);
      const chunk = parsed.data;
      if (chunk.model) model = chunk.model;
      if (chunk.usage) usage = chunk.usage;
      // Thoughtline never asks for n > 1, so the first choice is the reply.
      const choice = chunk.choices?.[0];
      if (choice === undefined) continue;
      const delta = choice.delta;
      for (const piece of [delta?.content, delta?.refusal]) {
        if (!piece) continue;
        text += piece;
        hooks?.onTextDelta?.(piece);
      }
      const reasoning = delta?.reasoning_content || delta?.reasoning;
      if (reasoning) hooks?.onThinkingDelta?.(reasoning);
      for (const fragment of delta?.tool_calls ?? []) addToolCall(fragment);
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  } catch (error) {
    if (error instanceof ApplicationFailure) throw error;
    const why =
      error instanceof Error
        ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`
        : String(error);
    throw streamIncomplete(`the connection broke mid-stream: ${why}`, redact);
  }

  if (!done || finishReason === undefined) {
    const missing = [finishReason === undefined ? 'a finish_reason' : undefined, done ? undefined : 'data: [DONE]'];
    throw streamIncomplete(`the stream ended without ${missing.filter(Boolean).join(' and ')}`, redact);
  }
  const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  const nameless = toolCalls.find((call) => call.name === '');
  if (nameless !== undefined)
    throw badResponse(`a streamed tool call has no function name (id "${nameless.id}")`, redact);
  return toMappedReply({ model, text, toolCalls, finishReason, usage });
}
