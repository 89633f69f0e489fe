import Anthropic from '@anthropic-ai/sdk';
import { ApplicationFailure } from '@temporalio/common';
import { FailureType, type ModelReply, type ModelRequest } from '../../../domain';
import { fromAnthropicMessage, toMessageCreateParams } from './anthropic-mapping';
import { samplingRefusal } from '../sampling-support';
import { anthropicSamplingProblem, SAMPLING_API_VERSION } from './anthropic-sampling';
import { streamMessage } from './anthropic-stream';
import { classifyAnthropicError } from './anthropic-classify-error';
import type { ModelCallHooks, ModelProvider } from '../../../domain/model/model-provider';
import { CLAUDE_PRICES, costOf, priceFor, type PriceTable } from '../pricing';

export interface AnthropicProviderOptions {
  /** Defaults to the SDK's own lookup (ANTHROPIC_API_KEY, then ANTHROPIC_AUTH_TOKEN, ...). */
  apiKey?: string;
  /** Defaults to ANTHROPIC_BASE_URL, then https://api.anthropic.com (read by the SDK). */
  baseURL?: string;
  /** A ready client (e.g. with `authToken`); `apiKey` and `baseURL` are then ignored. */
  client?: Anthropic;
  /** Price table for `costUsd`; defaults to the built-in snapshot. */
  prices?: PriceTable;
  /**
   * Stream the reply (SSE) so hooks see deltas and every event heartbeats; default true. Either
   * way the reply is the same `ModelReply`.
   */
  stream?: boolean;
}

/**
 * The Anthropic Messages API as a `ModelProvider`. Runs inside the `callModel` activity.
 * The client never retries (`maxRetries: 0`): every failure is classified into a typed
 * `ApplicationFailure` and Temporal's retry policy decides what happens next. A reply cut by
 * `max_tokens` is returned (stopReason `max_tokens`), not thrown: the workflow decides, and never
 * runs tool calls from it.
 */
export function createAnthropicProvider(options: AnthropicProviderOptions = {}): ModelProvider {
  const client = options.client ?? new Anthropic({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0 });
  const prices = options.prices ?? CLAUDE_PRICES;
  const stream = options.stream ?? true;

  return {
    name: 'anthropic',
    // Only for a client made here: a ready one may authenticate in ways this cannot see.
    ...(options.client ? {} : keyWarning(client)),
    async complete(request: ModelRequest, signal: AbortSignal, hooks?: ModelCallHooks): Promise<ModelReply> {
      // Before any I/O: what the model cannot take is refused, never dropped (anthropic-sampling.ts).
      const problem = anthropicSamplingProblem(request.model, request.sampling);
      if (problem !== undefined) throw samplingRefusal('anthropic', request.model, problem);
      const params = toMessageCreateParams(request);
      // API version 2026-10-21 (the SDK's) answers 400 to any sampling parameter; 2023-06-01 takes them.
      const sampled = 'temperature' in params || 'top_p' in params || 'top_k' in params;
      const options = { signal, ...(sampled ? { headers: { 'anthropic-version': SAMPLING_API_VERSION } } : {}) };
      const startedAt = Date.now();
      let message: Anthropic.Message;
      try {
        message = stream
          ? await streamMessage(client, params, options, hooks)
          : await client.messages.create(params, options);
      } catch (error) {
        // The SDK turns an abort into APIUserAbortError, which Temporal would report as a plain
        // failure; the activity's own cancellation reason (a CancelledFailure) must surface.
        if (signal.aborted) throw signal.reason;
        throw classifyAnthropicError(error);
      }
      const durationMs = Date.now() - startedAt;
      const reply = fromAnthropicMessage(checkShape(message));
      // The answering model may carry a date suffix the table lacks; the requested id is the fallback.
      const pricedModel = priceFor(reply.model, prices) !== undefined ? reply.model : request.model;
      return { ...reply, costUsd: costOf(pricedModel, reply.usage, prices), durationMs };
    },
  };
}

/** Said once by the worker that serves a provider without a key: every call would fail with ModelAuthentication. */
export const NO_ANTHROPIC_KEY =
  'ANTHROPIC_API_KEY is not set and createAnthropicProvider has no apiKey: runs that ask for an Anthropic model ' +
  '(provider "anthropic") will fail with ModelAuthentication ("Could not resolve authentication method"), unless ' +
  'the Anthropic SDK finds a credentials profile. Set ANTHROPIC_API_KEY, or serve "anthropic" with ' +
  'createOfflineModel() to try it without a key (docs/offline.md).';

/** The warning for a client the SDK found no key or token for (its own lookup: the options, then the environment). */
function keyWarning(client: Anthropic): { startWarning?: string } {
  return client.apiKey || client.authToken ? {} : { startWarning: NO_ANTHROPIC_KEY };
}

/**
 * The SDK returns a 200 body that is not `application/json` as a string; a proxy may also send
 * JSON of another shape. Either is a retryable ModelBadResponse, never a TypeError in the mapping.
 */
function checkShape(message: unknown): Anthropic.Message {
  const m = message as Partial<Anthropic.Message> | null;
  if (
    typeof m === 'object' &&
    m !== null &&
    Array.isArray(m.content) &&
    typeof m.model === 'string' &&
    typeof m.usage === 'object' &&
    m.usage !== null
  ) {
    return m as Anthropic.Message;
  }
  const seen = typeof message === 'string' ? JSON.stringify(message.slice(0, 120)) : typeof message;
  throw ApplicationFailure.create({
    type: FailureType.ModelBadResponse,
    nonRetryable: false,
    message: `Anthropic API reply is not a Message: ${seen}`,
  });
}
