import { z } from 'zod';
import { VisibilityLevel } from './chain';
import { DEFAULT_FINISH_TOOL } from './constants';
import { ModelProviderName } from './model-wire';

/** A model to switch to when the one before it has failed for good (retries exhausted or non-retryable). */
export const FallbackModel = z.object({
  provider: ModelProviderName,
  model: z.string(),
  maxTokens: z.number().int().positive().optional(),
});
export type FallbackModel = z.infer<typeof FallbackModel>;

export const ModelSettings = z.object({
  provider: ModelProviderName.default('anthropic'),
  model: z.string().default('claude-sonnet-4-6'),
  maxTokens: z.number().int().positive().default(2048),
  /** Start-to-close limit of one model call, in ms. */
  timeoutMs: z.number().int().positive().default(120_000),
  /** Attempts of one model call, retryable failures only. */
  maximumAttempts: z.number().int().positive().default(5),
  /** A call that stops heartbeating this long is retried; streams heartbeat on every chunk. */
  heartbeatTimeoutMs: z.number().int().positive().default(30_000),
  /** Tried in order, each with the same attempts, once this model has failed for good. */
  fallbacks: z.array(FallbackModel).default([]),
});
export type ModelSettings = z.infer<typeof ModelSettings>;

export const DEFAULT_FINISH_DESCRIPTION =
  'Signal that you have completed the task. Call this with your final answer.';

/** What a client sends to start `agentWorkflow`. Defaults live here, and only here. */
export const AgentInput = z.object({
  task: z.string().min(1),
  agentName: z.string().default('agent'),
  /** Prepended to the built-in instructions about tools and the finish tool. */
  systemPrompt: z.string().optional(),
  model: ModelSettings.default(ModelSettings.parse({})),
  /** Names of registered tools this run may use; omitted means every registered tool. */
  tools: z.array(z.string()).optional(),
  maxIterations: z.number().int().positive().default(10),
  /** `native`: the API's tool calling. `react-text`: Thought/Action/Observation text (seed 000), for models without tools. */
  strategy: z.enum(['native', 'react-text']).default('native'),
  finishToolName: z.string().min(1).default(DEFAULT_FINISH_TOOL),
  finishToolDescription: z.string().default(DEFAULT_FINISH_DESCRIPTION),
  /** Tool results longer than this (as JSON text) are cut, with a visible marker. */
  maxToolResultChars: z.number().int().positive().default(8_000),
  /** Visibility of thinking and synthesis steps; tool steps take their tool's own level. */
  visibility: VisibilityLevel.default('full'),
});
export type AgentInput = z.infer<typeof AgentInput>;
/** The shape callers write: every defaulted field may be left out. */
export type AgentInputInit = z.input<typeof AgentInput>;
