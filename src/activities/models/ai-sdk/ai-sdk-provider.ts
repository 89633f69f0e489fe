import type { ModelReply, ModelRequest } from '../../../domain';
import type { ModelCallHooks, ModelProvider } from '../../../domain/model/model-provider';
import { costOf, priceFor, type PriceTable } from '../pricing';
import { providerOptionsKey, toCallOptions } from './ai-sdk-call-options';
import { classifyAiSdkError } from './ai-sdk-classify-error';
import { isLanguageModel, languageModelFor, type AiSdkModelSource } from './ai-sdk-model-source';
import { toStopReason, toTokenUsage } from './ai-sdk-reply';
import { readModelStream, type StreamedReply } from './ai-sdk-stream';

export interface AiSdkProviderOptions {
  /**
   * The name failures and messages use. Default: the model's own `provider` (e.g. `openai.chat`)
   * for one model, `ai-sdk` for a provider object. The worker's registry key is separate.
   */
  name?: string;
  /** Price table for `costUsd`. Default: empty, so every model costs 0 until priced. */
  prices?: PriceTable;
}

/**
 * While waiting for the first part or between parts, the call heartbeats this often: Temporal
 * delivers activity cancellation only through heartbeats, and a model may think for minutes.
 */
const KEEPALIVE_HEARTBEAT_MS = 5_000;

/**
 * Any AI SDK language model (specification v4: `@ai-sdk/openai`, `@ai-sdk/anthropic`,
 * `@ai-sdk/google`, `@ai-sdk/amazon-bedrock`, … 4.x) as a `ModelProvider`, running inside the
 * `callModel` activity. Calls the model's `doStream` directly, not `streamText`: nothing retries
 * here, every failure is an `ApplicationFailure` typed by `FailureType` with an explicit retry
 * decision, and Temporal's retry policy acts on it. On activity cancellation the call is aborted
 * and the cancellation reason is rethrown, even if the model ignores its abort signal.
 */
export function createAiSdkProvider(model: AiSdkModelSource, options: AiSdkProviderOptions = {}): ModelProvider {
  const name = options.name ?? (isLanguageModel(model) ? model.provider : 'ai-sdk');
  const prices = options.prices ?? {};

  async function call(request: ModelRequest, signal: AbortSignal, hooks: ModelCallHooks): Promise<StreamedReply> {
    if (signal.aborted) throw signal.reason;
    const languageModel = languageModelFor(model, request.model, name);
    const metadataKey = providerOptionsKey(languageModel.provider);
    // Our own controller, so the reader can also drop the connection when it refuses a reply.
    const abort = new AbortController();
    const onAbort = () => abort.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      // A model that ignores its abort signal still cannot hold a cancelled activity.
      const { stream } = await untilAborted(
        Promise.resolve(languageModel.doStream({ ...toCallOptions(request, metadataKey), abortSignal: abort.signal })),
        abort.signal,
      );
      return await readModelStream(stream, { providerName: name, request, hooks, signal: abort.signal });
    } finally {
      signal.removeEventListener('abort', onAbort);
      abort.abort();
    }
  }

  return {
    name,
    async complete(request: ModelRequest, signal: AbortSignal, hooks: ModelCallHooks = {}): Promise<ModelReply> {
      const startedAt = Date.now();
      const keepAlive =
        hooks.heartbeat === undefined ? undefined : setInterval(() => hooks.heartbeat?.(), KEEPALIVE_HEARTBEAT_MS);
      let streamed: StreamedReply;
      try {
        streamed = await call(request, signal, hooks);
      } catch (error) {
        // Whatever the abort looked like on the way (an AbortError, a broken stream), the
        // activity's own reason (a CancelledFailure) must surface so it ends as cancelled.
        if (signal.aborted) throw signal.reason;
        throw classifyAiSdkError(error, name);
      } finally {
        clearInterval(keepAlive);
      }
      const usage = toTokenUsage(streamed.usage);
      const answeredBy = streamed.modelId ?? request.model;
      // The answering id may carry a date suffix the table lacks; the requested id is the fallback.
      const pricedModel = priceFor(answeredBy, prices) !== undefined ? answeredBy : request.model;
      return {
        content: streamed.content,
        stopReason: toStopReason(
          streamed.finishReason,
          streamed.content.some((block) => block.type === 'tool_use'),
        ),
        model: answeredBy,
        usage,
        costUsd: costOf(pricedModel, usage, prices),
        durationMs: Date.now() - startedAt,
      };
    },
  };
}

/** Rejects as soon as `signal` aborts, whether or not the model honours its abort signal. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
