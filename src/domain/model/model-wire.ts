import { isIdentifierName } from '../text/identifier-name';
import { z } from 'zod';
import { TokenUsage } from './usage';
import { CacheRequest } from '../planning/cache-request';
import { CacheHit } from '../planning/plan-verdicts';

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

/** The providers Thoughtline builds itself; a worker may register any other name (`gemini`, `bedrock-eu`). */
export const BUILT_IN_MODEL_PROVIDERS = ['anthropic', 'openai-compatible', 'scripted', 'local'] as const;

/** Letters, digits, `.`, `_` and `-`, starting with a letter: a name that reads the same in a flag, a URL and a log. */
const isProviderName = (name: string): boolean => isIdentifierName(name, 64);

/** A model provider as a worker names it. Checked with `refine`, not a regex: the workflow sandbox freezes RegExp state. */
export const ModelProviderName = z
  .string()
  .refine(isProviderName, 'a provider name is up to 64 letters, digits, ".", "_" or "-", starting with a letter');
export type ModelProviderName = z.infer<typeof ModelProviderName>;

/**
 * Sampling settings, sent to the provider only when set. A provider that cannot honour one refuses
 * the call (FailureType.ModelSettingUnsupported) rather than ignore it.
 */
export const SamplingSettings = z
  .object({
    temperature: z.number().min(0).max(2).optional(),
    topP: z.number().gt(0).max(1).optional(),
    topK: z.number().int().positive().optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
  })
  .strict();
export type SamplingSettings = z.infer<typeof SamplingSettings>;

/** Which registered tools a model call describes itself (ModelRequest.describeTools). */
export const DescribeTools = z.object({ names: z.array(z.string()).optional() }).strict();
export type DescribeTools = z.infer<typeof DescribeTools>;

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
  sampling: SamplingSettings.optional(),
  /** Registry entries the worker may send this call to (their own URL, key, region, model id); one is picked per attempt. */
  endpoints: z.array(z.string().min(1).max(128)).min(1).max(16).optional(),
  /** The run caches model replies (`cache.model`): the worker may answer from its cache. Never sent to a provider. */
  cache: CacheRequest.optional(),
  /** The run's answer is checked by output guardrails: the worker publishes no live text of this call. Never sent to a provider. */
  holdLiveText: z.literal(true).optional(),
  /**
   * The run's registered tools, not yet described: the worker describes them from its registry
   * (`names`, or all it has) and offers them first, before `tools`; the reply carries the specs
   * (`describedTools`). Never sent to a provider.
   */
  describeTools: DescribeTools.optional(),
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
  /** The registry entry that answered, when the call named endpoints. */
  endpoint: z.string().optional(),
  /** The reply came from the worker's cache, stored by an earlier run: no model was called, nothing was paid. */
  cacheHit: CacheHit.optional(),
});
export type ModelReply = z.infer<typeof ModelReply>;
