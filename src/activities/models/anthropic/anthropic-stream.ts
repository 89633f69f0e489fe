import type Anthropic from '@anthropic-ai/sdk';
import { APIError } from '@anthropic-ai/sdk';
import { ApplicationFailure } from '@temporalio/common';
import { FailureType } from '../../../domain';
import { messageChain } from './anthropic-classify-error';
import type { ModelCallHooks } from '../../../domain/model/model-provider';

/**
 * One streamed Messages call through the SDK's `MessageStream`, returning the message it
 * accumulated. Every event heartbeats (the SDK drops `ping`s before they reach us); text and
 * thinking deltas go to the hooks for live watchers only.
 *
 * How SDK 1.12 reports what can go wrong, and what leaves here:
 * - HTTP error status before the stream: the `APIError` with its status, unchanged.
 * - `event: error` inside the stream: an `APIError` with no status and `type` = the error type,
 *   unchanged (the classifier decides on the type).
 * - The body ends before `message_stop` (EOF): `finalMessage()` rejects with a plain
 *   `AnthropicError` ("stream ended without producing a Message…", or "request ended without
 *   sending any chunks" before `message_start`). A connection reset mid-body: an `AnthropicError`
 *   wrapping fetch's `TypeError: terminated`. Both become a retryable `ModelStreamIncomplete`
 *   here; an unparseable event (`SyntaxError` cause) becomes a retryable `ModelBadResponse`.
 * - Abort: `APIUserAbortError`, unchanged; the provider rethrows the signal's reason instead.
 * Note: the SDK never throws on a reply cut by `max_tokens`; it ends with `message_stop` and a
 * tool input parsed leniently from partial JSON (truncated fields silently dropped).
 */
export async function streamMessage(
  client: Anthropic,
  params: Anthropic.MessageCreateParamsNonStreaming,
  options: Anthropic.RequestOptions,
  hooks: ModelCallHooks = {},
): Promise<Anthropic.Message> {
  const stream = client.messages.stream(params, options);
  let events = 0;
  stream.on('streamEvent', (event) => {
    events += 1;
    hooks.heartbeat?.();
    if (event.type !== 'content_block_delta') return;
    if (event.delta.type === 'text_delta') hooks.onTextDelta?.(event.delta.text);
    else if (event.delta.type === 'thinking_delta') hooks.onThinkingDelta?.(event.delta.thinking);
  });
  try {
    return await stream.finalMessage();
  } catch (error) {
    // Errors with a status or an API error type, connection failures before any response and
    // aborts are all APIErrors: the caller classifies them. What remains broke the body.
    if (error instanceof APIError || stream.response == null) throw error;
    throw brokenStreamFailure(error, events, stream.request_id);
  }
}

function brokenStreamFailure(error: unknown, events: number, requestId: string | null | undefined): ApplicationFailure {
  const unreadable = error instanceof Error && error.cause instanceof SyntaxError;
  return ApplicationFailure.create({
    type: unreadable ? FailureType.ModelBadResponse : FailureType.ModelStreamIncomplete,
    nonRetryable: false,
    message: `Anthropic API stream ${unreadable ? 'sent an unreadable event' : 'ended before message_stop'} after ${events} events: ${messageChain(error)}`,
    details: [requestId ? { eventsReceived: events, requestId } : { eventsReceived: events }],
    ...(error instanceof Error ? { cause: error } : {}),
  });
}
