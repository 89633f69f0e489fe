import Anthropic from '@anthropic-ai/sdk';
import type { ModelReply, ModelRequest } from '../../shared';
import { fromAnthropicMessage, toMessageCreateParams } from './anthropic-mapping';
import { classifyAnthropicError } from './classify-anthropic-error';
import type { ModelProvider } from './model-provider';
import { CLAUDE_PRICES, costOf, priceFor, type PriceTable } from './pricing';

export interface AnthropicProviderOptions {
  /** Defaults to the SDK's own lookup (ANTHROPIC_API_KEY, then ANTHROPIC_AUTH_TOKEN, ...). */
  apiKey?: string;
  /** Defaults to ANTHROPIC_BASE_URL, then https://api.anthropic.com (read by the SDK). */
  baseURL?: string;
  /** A ready client (e.g. with `authToken`); `apiKey` and `baseURL` are then ignored. */
  client?: Anthropic;
  /** Price table for `costUsd`; defaults to the built-in snapshot. */
  prices?: PriceTable;
}

/**
 * The Anthropic Messages API as a `ModelProvider`. Runs inside the `callModel` activity.
 * Non-streaming for now. The client never retries (`maxRetries: 0`): every failure is classified
 * into a typed `ApplicationFailure` and Temporal's retry policy decides what happens next.
 */
export function createAnthropicProvider(options: AnthropicProviderOptions = {}): ModelProvider {
  const client =
    options.client ?? new Anthropic({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0 });
  const prices = options.prices ?? CLAUDE_PRICES;

  return {
    name: 'anthropic',
    async complete(request: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
      const params = toMessageCreateParams(request);
      const startedAt = Date.now();
      let message: Anthropic.Message;
      try {
        message = await client.messages.create(params, { signal });
      } catch (error) {
        // The SDK turns an abort into APIUserAbortError, which Temporal would report as a plain
        // failure; the activity's own cancellation reason (a CancelledFailure) must surface.
        if (signal.aborted) throw signal.reason;
        throw classifyAnthropicError(error);
      }
      const durationMs = Date.now() - startedAt;
      const reply = fromAnthropicMessage(message);
      // The answering model may carry a date suffix the table lacks; the requested id is the fallback.
      const pricedModel = priceFor(reply.model, prices) !== undefined ? reply.model : request.model;
      return { ...reply, costUsd: costOf(pricedModel, reply.usage, prices), durationMs };
    },
  };
}
