import { z } from 'zod';
import { TokenUsage } from './usage';

/**
 * Provider-neutral conversation format passed from the workflow to the `callModel` activity.
 * Providers map it to their own API at the activity boundary.
 */
export const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
export const ToolUseBlock = z.object({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});
export const ToolResultBlock = z.object({
  type: z.literal('tool_result'),
  toolUseId: z.string(),
  content: z.string(),
  isError: z.boolean(),
});
/** Extended thinking, kept with its signature: the API needs it back unchanged on the next turn. */
export const ThinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
export const RedactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: z.string() });
export type ThinkingBlock = z.infer<typeof ThinkingBlock>;
export type RedactedThinkingBlock = z.infer<typeof RedactedThinkingBlock>;
export type TextBlock = z.infer<typeof TextBlock>;
export type ToolUseBlock = z.infer<typeof ToolUseBlock>;
export type ToolResultBlock = z.infer<typeof ToolResultBlock>;

export const AssistantBlock = z.discriminatedUnion('type', [
  TextBlock,
  ToolUseBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
]);
export type AssistantBlock = z.infer<typeof AssistantBlock>;
export const UserBlock = z.discriminatedUnion('type', [TextBlock, ToolResultBlock]);
export type UserBlock = z.infer<typeof UserBlock>;

export const ModelMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.array(UserBlock) }),
  z.object({ role: z.literal('assistant'), content: z.array(AssistantBlock) }),
]);
export type ModelMessage = z.infer<typeof ModelMessage>;

/** A tool as the model sees it: JSON Schema made from the tool's zod input schema. */
export const ModelTool = z.object({
  name: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
});
export type ModelTool = z.infer<typeof ModelTool>;

export const ModelProviderName = z.enum(['anthropic', 'openai-compatible', 'scripted']);
export type ModelProviderName = z.infer<typeof ModelProviderName>;

export const ModelRequest = z.object({
  provider: ModelProviderName,
  model: z.string(),
  system: z.string(),
  messages: z.array(ModelMessage),
  tools: z.array(ModelTool),
  /** 'none' keeps the tools visible (the API needs them once tool_use is in the conversation) but forbids calling them. */
  toolChoice: z.enum(['auto', 'none']),
  maxTokens: z.number().int().positive(),
  /** The model stops before writing any of these (text ReAct stops before inventing an Observation). */
  stopSequences: z.array(z.string()).optional(),
});
export type ModelRequest = z.infer<typeof ModelRequest>;

export const ModelReply = z.object({
  content: z.array(AssistantBlock),
  /** Provider's own stop reason, e.g. `end_turn`, `tool_use`, `max_tokens`. */
  stopReason: z.string(),
  /** The model that actually answered (may carry a dated suffix). */
  model: z.string(),
  usage: TokenUsage,
  costUsd: z.number().nonnegative(),
  durationMs: z.number().nonnegative(),
});
export type ModelReply = z.infer<typeof ModelReply>;
