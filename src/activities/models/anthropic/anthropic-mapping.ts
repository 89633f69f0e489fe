import type Anthropic from '@anthropic-ai/sdk';
import {
  type AssistantBlock,
  type ModelMessage,
  type ModelRequest,
  type ModelTool,
  type TokenUsage,
} from '../../../domain';
import { withConversationBreakpoints } from './anthropic-cache-breakpoints';
import { anthropicSamplingFields, type AnthropicSamplingFields } from './anthropic-sampling';

/**
 * Pure translation between Thoughtline's provider-neutral wire format and the Anthropic
 * Messages API as typed by @anthropic-ai/sdk 1.x (API version 2026-10-21). No I/O.
 */

/** Usage fields we read; the SDK's `Usage` has more. */
export type AnthropicUsageFields = Pick<
  Anthropic.Usage,
  'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens'
>;

/** The reply fields we read; the SDK's `Message` has more. */
export type AnthropicReplyFields = Pick<Anthropic.Message, 'content' | 'stop_reason' | 'model'> & {
  usage: AnthropicUsageFields;
};

/** A mapped reply, before the provider adds cost and duration. */
export interface MappedReply {
  content: AssistantBlock[];
  stopReason: string;
  model: string;
  usage: TokenUsage;
}

const EPHEMERAL: Anthropic.CacheControlEphemeral = { type: 'ephemeral' };

/**
 * Sampling parameters go in only when set, after anthropic-sampling.ts accepted them: SDK 1.x's
 * types no longer have them (its API version 2026-10-21 refuses them), so they are added to the
 * body here and the provider sends such a call on API version 2023-06-01.
 * Prompt caching: the last tool and the system prompt carry cache breakpoints (the cached prefix
 * is tools, then system, then messages), and the conversation two more (see
 * anthropic-cache-breakpoints.ts): its last block, and where the previous call ended. So each
 * call reads what the previous one wrote and pays full price only for what the turn appended.
 * Prefixes shorter than the model's minimum are simply not cached; the API does not reject them.
 */
export function toMessageCreateParams(
  request: ModelRequest,
): Anthropic.MessageCreateParamsNonStreaming & AnthropicSamplingFields {
  const params: Anthropic.MessageCreateParamsNonStreaming & AnthropicSamplingFields = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages: withConversationBreakpoints(request.messages.map(toMessageParam)),
    ...anthropicSamplingFields(request.sampling),
  };
  if (request.stopSequences && request.stopSequences.length > 0) params.stop_sequences = request.stopSequences;
  if (request.system !== '') params.system = [{ type: 'text', text: request.system, cache_control: EPHEMERAL }];
  // The API rejects tool_choice without tools, and tools with an empty list add nothing.
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool, i) =>
      i === request.tools.length - 1 ? { ...toTool(tool), cache_control: EPHEMERAL } : toTool(tool),
    );
    params.tool_choice = request.toolChoice === 'none' ? { type: 'none' } : { type: 'auto' };
  }
  return params;
}

export function toMessageParam(message: ModelMessage): Anthropic.MessageParam {
  if (message.role === 'assistant') {
    const content: Anthropic.ContentBlockParam[] = [];
    for (const block of message.content) {
      if (block.type === 'text') {
        // The API rejects empty text blocks; an empty one carries nothing to keep.
        if (block.text !== '') content.push({ type: 'text', text: block.text });
      } else if (block.type === 'tool_use') {
        content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
      } else if (block.type === 'thinking') {
        // Sent back unchanged: the API verifies the signature of earlier thinking.
        content.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
      } else {
        content.push({ type: 'redacted_thinking', data: block.data });
      }
    }
    return { role: 'assistant', content };
  }
  const content: Anthropic.ContentBlockParam[] = [];
  for (const block of message.content) {
    if (block.type === 'text') {
      if (block.text !== '') content.push({ type: 'text', text: block.text });
    } else {
      content.push({
        type: 'tool_result',
        tool_use_id: block.toolUseId,
        content: block.content,
        is_error: block.isError,
      });
    }
  }
  return { role: 'user', content };
}

export function toTool(tool: ModelTool): Anthropic.Tool {
  // The API requires an object schema at the top level; zod object schemas already say so.
  return { name: tool.name, description: tool.description, input_schema: { ...tool.inputSchema, type: 'object' } };
}

export function toTokenUsage(usage: AnthropicUsageFields): TokenUsage {
  return {
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    cacheReadTokens: usage.cache_read_input_tokens ?? 0,
    cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Keeps text, tool_use, thinking (with its signature) and redacted_thinking blocks: the API needs
 * thinking back unchanged when the turn continues with tool results. Server-tool blocks are
 * dropped. A null stop reason (only from a broken or truncated reply) becomes `unknown`, which the
 * loop must treat as incomplete: it never runs tools unless the stop reason is `tool_use`.
 */
export function fromAnthropicMessage(message: AnthropicReplyFields): MappedReply {
  const content: AssistantBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'text') content.push({ type: 'text', text: block.text });
    // Client tool input is always a JSON object; anything else would fail the tool's schema anyway.
    else if (block.type === 'tool_use') {
      content.push({
        type: 'tool_use',
        id: block.id,
        name: block.name,
        input: isRecord(block.input) ? block.input : {},
      });
    } else if (block.type === 'thinking') {
      content.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    } else if (block.type === 'redacted_thinking') {
      content.push({ type: 'redacted_thinking', data: block.data });
    }
  }
  return {
    content,
    stopReason: message.stop_reason ?? 'unknown',
    model: message.model,
    usage: toTokenUsage(message.usage),
  };
}
