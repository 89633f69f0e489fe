import type { LLamaChatGenerateResponseOptions, LlamaChatResponse } from 'node-llama-cpp' with {
  'resolution-mode': 'import',
};
import type { AssistantBlock, ModelReply, ModelRequest } from '../../../domain';
import type { ModelCallHooks, ModelProvider } from '../../../domain/model/model-provider';
import { loadLlamaEngine, type LlamaEngine } from './llama-engine';
import { toChatHistory } from './local-chat-history';
import {
  classifyGenerationError,
  classifyLoadError,
  grammarFailure,
  promptTooLarge,
  repeatingReply,
} from './local-classify-error';
import { findRepetition, type Repetition } from './repetition';
import { createSerialQueue } from './serial-queue';
import { readToolReply } from './tool-reply';
import { toolReplySchema } from './tool-reply-schema';

export interface LlamaCppProviderOptions {
  /** A GGUF file (see model-weights.ts for SmolLM2-135M-Instruct, fetched on first use). */
  modelPath: string;
  /** Evaluation threads. Default: the cores available but one (`os.availableParallelism() - 1`, at least 1); more is capped to the cores. */
  threads?: number;
  /** Context window in tokens. Default 8,192, capped at the model's trained context. */
  contextSize?: number;
  /** The provider name runs use (`ModelSettings.provider`). Default `local`. */
  name?: string;
}

export interface LlamaCppProvider extends ModelProvider {
  /** Frees the model and the native backend; later calls fail. */
  dispose(): Promise<void>;
}

/** Rejects with the signal's reason once it aborts; never settles otherwise. */
function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** Same period as the OpenAI-compatible provider: prompt evaluation may run long before the first token. */
const KEEPALIVE_HEARTBEAT_MS = 5_000;

/**
 * A GGUF model run inside the worker process by llama.cpp (node-llama-cpp), as a `ModelProvider`.
 * The model loads once, on the first call, and is reused; calls run one at a time on its single
 * context sequence. Each call is stateless: the whole conversation is rendered with the model's
 * chat template. With tools offered and toolChoice 'auto', generation is held to a grammar of
 * the tools' schemas (tool-reply-schema.ts), so the reply is a valid call or an answer.
 * A reply that starts repeating itself is stopped there (repetition.ts) and fails as
 * `ModelRepeating`, non-retryable: greedy decoding would loop the same way on every retry.
 * Failures are `ApplicationFailure`s typed by `FailureType`; an abort rethrows `signal.reason`.
 * Costs nothing (`costUsd` 0).
 */
export function createLlamaCppProvider(options: LlamaCppProviderOptions): LlamaCppProvider {
  const name = options.name ?? 'local';
  const serial = createSerialQueue();
  let engine: Promise<LlamaEngine> | undefined;

  function loaded(): Promise<LlamaEngine> {
    engine ??= loadLlamaEngine(options).catch((error: unknown) => {
      // A failed load is not cached: a retried activity loads again (memory may have freed).
      engine = undefined;
      throw classifyLoadError(error, options.modelPath);
    });
    return engine;
  }

  async function generate(
    request: ModelRequest,
    signal: AbortSignal,
    hooks: ModelCallHooks | undefined,
  ): Promise<ModelReply> {
    const startedAt = Date.now();
    // The first call waits for the model to load (about a second); an abort does not wait with it.
    const e = await Promise.race([loaded(), rejectOnAbort(signal)]);
    const constrained = request.tools.length > 0 && request.toolChoice === 'auto';
    const history = toChatHistory(request, constrained);
    const inputTokens = e.promptTokens(history);
    if (inputTokens >= e.contextSize) throw promptTooLarge(inputTokens, e.contextSize);
    // The context bounds the reply too: what it cannot hold is reported as max_tokens.
    const maxTokens = Math.min(request.maxTokens, e.contextSize - inputTokens);
    let grammar;
    if (constrained) {
      try {
        grammar = await e.grammarFor(toolReplySchema(request.tools));
      } catch (error) {
        throw grammarFailure(error);
      }
    }
    let outputTokens = 0;
    let written = '';
    let repetition: Repetition | undefined;
    // Stops the generation once the reply loops; the caller's signal still aborts it too.
    const loopStop = new AbortController();
    const sampling = request.sampling ?? {};
    const generateOptions: LLamaChatGenerateResponseOptions = {
      signal: AbortSignal.any([signal, loopStop.signal]),
      maxTokens,
      onToken: (tokens) => {
        outputTokens += tokens.length;
        hooks?.heartbeat?.();
      },
      onTextChunk: (text: string) => {
        // Under the grammar the text is JSON, not prose: the thought is sent once it is read.
        if (!constrained) hooks?.onTextDelta?.(text);
        written += text;
        repetition ??= findRepetition(written);
        if (repetition && !loopStop.signal.aborted) loopStop.abort();
      },
      ...(constrained ? { grammar } : {}),
      ...(request.stopSequences?.length ? { customStopTriggers: request.stopSequences } : {}),
      ...(sampling.temperature !== undefined ? { temperature: sampling.temperature } : {}),
      ...(sampling.topP !== undefined ? { topP: sampling.topP } : {}),
      ...(sampling.topK !== undefined ? { topK: sampling.topK } : {}),
      ...(sampling.seed !== undefined ? { seed: sampling.seed } : {}),
    };
    let response: LlamaChatResponse;
    try {
      response = await e.chat.generateResponse(history, generateOptions);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (repetition) throw repeatingReply(repetition, outputTokens);
      throw classifyGenerationError(error);
    }
    if (signal.aborted) throw signal.reason;
    if (repetition) throw repeatingReply(repetition, outputTokens);
    const stop = response.metadata.stopReason;
    let content: AssistantBlock[];
    let stopReason: string;
    if (constrained) {
      ({ content, stopReason } = readToolReply(response.response, stop === 'maxTokens'));
      for (const block of content) if (block.type === 'text') hooks?.onTextDelta?.(block.text);
    } else {
      content = response.response === '' ? [] : [{ type: 'text', text: response.response }];
      stopReason = stop === 'maxTokens' ? 'max_tokens' : stop === 'customStopTrigger' ? 'stop_sequence' : 'end_turn';
    }
    return {
      content,
      stopReason,
      model: request.model,
      usage: { inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0,
      durationMs: Date.now() - startedAt,
    };
  }

  return {
    name,
    async complete(request, signal, hooks) {
      const keepAlive =
        hooks?.heartbeat === undefined ? undefined : setInterval(() => hooks.heartbeat?.(), KEEPALIVE_HEARTBEAT_MS);
      try {
        return await serial(() => generate(request, signal, hooks), signal);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw error;
      } finally {
        clearInterval(keepAlive);
      }
    },
    async dispose() {
      const current = engine;
      engine = undefined;
      if (current) await (await current.catch(() => undefined))?.llama.dispose();
    },
  };
}
