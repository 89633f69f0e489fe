import type { ModelReply, ModelRequest } from '../../../domain';
import type { ModelCallHooks, ModelProvider } from '../../../domain/model/model-provider';
import {
  badResponse,
  bodySnippet,
  classifyOpenAIErrorPayload,
  classifyOpenAIFetchError,
  classifyOpenAIHttpError,
  connectionFailure,
  createTextRedactor,
  type RedactText,
} from './openai-classify-error';
import { fromChatCompletion, toChatCompletionRequest, type MappedReply } from './openai-mapping';
import { readChatStream } from './openai-stream';
import { ChatCompletion } from './openai-wire';
import { costOf, priceFor, type PriceTable } from '../pricing';

export interface OpenAICompatibleProviderOptions {
  /**
   * Up to and including the API version; `/chat/completions` is appended. E.g.
   * `http://localhost:11434/v1` (Ollama), `http://localhost:8000/v1` (vLLM),
   * `http://localhost:8080/v1` (llama.cpp server), `http://localhost:1234/v1` (LM Studio).
   */
  baseURL: string;
  /** Sent as `Authorization: Bearer …`. Local servers usually need none. */
  apiKey?: string;
  /** Price table for `costUsd`. Default: empty, so every model costs 0 (local models are free). */
  prices?: PriceTable;
  /** Stream the reply over SSE. Default true: heartbeats and text deltas as tokens arrive. */
  stream?: boolean;
  /** Extra request headers, applied last (so they may replace `authorization`). */
  headers?: Record<string, string>;
}

/**
 * While waiting for a response or between chunks, the call heartbeats this often. Temporal
 * delivers activity cancellation only through heartbeats, and a local model may think for
 * minutes before its first token; a hung server is bounded by the start-to-close timeout.
 */
const KEEPALIVE_HEARTBEAT_MS = 5_000;

/**
 * Any server speaking the Chat Completions API, over `fetch`, as a `ModelProvider` running
 * inside the `callModel` activity. Nothing retries here: every failure is an `ApplicationFailure`
 * typed by `FailureType` with an explicit retry decision, and Temporal's retry policy acts on it.
 * On activity cancellation the call is aborted and the cancellation reason is rethrown.
 */
export function createOpenAICompatibleProvider(options: OpenAICompatibleProviderOptions): ModelProvider {
  const url = `${options.baseURL.replace(/\/+$/, '')}/chat/completions`;
  const stream = options.stream ?? true;
  const prices = options.prices ?? {};
  const redact = createTextRedactor(options.apiKey);

  function headers(): Headers {
    const out = new Headers({
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
    });
    if (options.apiKey !== undefined && options.apiKey !== '') out.set('authorization', `Bearer ${options.apiKey}`);
    for (const [name, value] of Object.entries(options.headers ?? {})) out.set(name, value);
    return out;
  }

  async function call(
    request: ModelRequest,
    signal: AbortSignal,
    hooks: ModelCallHooks | undefined,
  ): Promise<MappedReply> {
    let response: Response;
    try {
      const body = JSON.stringify(toChatCompletionRequest(request, stream));
      response = await fetch(url, { method: 'POST', headers: headers(), body, signal });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw classifyOpenAIFetchError(error, redact);
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw classifyOpenAIHttpError(response.status, response.headers, text, redact);
    }
    // A server may ignore `stream: true` and answer with one JSON body; that reply is as good.
    const isSse = /text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    if (stream && isSse && response.body !== null) return readChatStream(response.body, request.model, hooks, redact);
    return readCompletion(response, request.model, redact);
  }

  return {
    name: 'openai-compatible',
    async complete(request: ModelRequest, signal: AbortSignal, hooks?: ModelCallHooks): Promise<ModelReply> {
      const startedAt = Date.now();
      const keepAlive =
        hooks?.heartbeat === undefined ? undefined : setInterval(() => hooks.heartbeat?.(), KEEPALIVE_HEARTBEAT_MS);
      let reply: MappedReply;
      try {
        reply = await call(request, signal, hooks);
      } catch (error) {
        // Whatever the abort looked like on the way (a fetch AbortError, a broken stream), the
        // activity's own reason (a CancelledFailure) must surface so it ends as cancelled.
        if (signal.aborted) throw signal.reason;
        throw error;
      } finally {
        clearInterval(keepAlive);
      }
      // A local server may answer with another spelling of the model; the requested id is the fallback.
      const pricedModel = priceFor(reply.model, prices) !== undefined ? reply.model : request.model;
      return { ...reply, costUsd: costOf(pricedModel, reply.usage, prices), durationMs: Date.now() - startedAt };
    },
  };
}

async function readCompletion(response: Response, requestModel: string, redact: RedactText): Promise<MappedReply> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw connectionFailure(
      `the connection broke while reading the reply: ${error instanceof Error ? error.message : String(error)}`,
      redact,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const contentType = response.headers.get('content-type') ?? 'no content-type';
    throw badResponse(
      `status ${response.status} but the body is not JSON (${contentType}): ${bodySnippet(text) || '(empty)'}`,
      redact,
    );
  }
  if (typeof json === 'object' && json !== null && (json as { error?: unknown }).error != null) {
    throw classifyOpenAIErrorPayload(json, redact);
  }
  const parsed = ChatCompletion.safeParse(json);
  if (!parsed.success) throw badResponse(`not a chat completion: ${bodySnippet(text)}`, redact);
  const reply = fromChatCompletion(parsed.data, requestModel);
  if (reply === undefined) throw badResponse('the completion has no choices', redact);
  return reply;
}
