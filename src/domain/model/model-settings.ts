import { z } from 'zod';
import { ModelProviderName, SamplingSettings } from './model-wire';

/** USD per million tokens. */
export const ModelPrice = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative().default(0),
  cacheWrite: z.number().nonnegative().default(0),
});
export type ModelPrice = z.infer<typeof ModelPrice>;

/** Registry entries (their own base URL, key or region) a worker picks among for each attempt of a call. */
export const ModelEndpoints = z.array(z.string().min(1).max(128)).min(1).max(16);

/** A model to switch to when the one before it has failed for good (retries exhausted or non-retryable). */
export const FallbackModel = z.object({
  provider: ModelProviderName,
  model: z.string(),
  maxTokens: z.number().int().positive().optional(),
  /** Used to project a call's cost against `costBudgetUsd`; else the built-in Claude list prices. */
  price: ModelPrice.optional(),
  sampling: SamplingSettings.optional(),
  endpoints: ModelEndpoints.optional(),
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
  /**
   * A call that stops heartbeating this long is retried, on another worker if its own died. The
   * worker heartbeats every call once a second (while it waits for a slow first token too, and on
   * stream chunks), so 5 s notices a dead worker quickly and leaves 4 s for a stalled event loop.
   */
  heartbeatTimeoutMs: z.number().int().positive().default(5_000),
  /** Tried in order, each with the same attempts, once this model has failed for good. */
  fallbacks: z.array(FallbackModel).default([]),
  /** Used to project a call's cost against `costBudgetUsd`; else the built-in Claude list prices. */
  price: ModelPrice.optional(),
  /** temperature, topP, topK, seed: sent only when set; a provider that cannot honour one refuses the call. */
  sampling: SamplingSettings.optional(),
  /** Set by a model registry: the entries (endpoints) of this model the worker balances calls across. */
  endpoints: ModelEndpoints.optional(),
});
export type ModelSettings = z.infer<typeof ModelSettings>;

/** A sub-agent's model: the fields it sets replace its parent's. No defaults, so nothing is set by accident. */
export const ModelOverride = z.object({
  provider: ModelProviderName.optional(),
  model: z.string().optional(),
  maxTokens: z.number().int().positive().optional(),
  timeoutMs: z.number().int().positive().optional(),
  maximumAttempts: z.number().int().positive().optional(),
  heartbeatTimeoutMs: z.number().int().positive().optional(),
  fallbacks: z.array(FallbackModel).optional(),
  price: ModelPrice.optional(),
  sampling: SamplingSettings.optional(),
  endpoints: ModelEndpoints.optional(),
});
export type ModelOverride = z.infer<typeof ModelOverride>;
