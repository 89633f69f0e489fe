import { createLlamaCppProvider, type LlamaCppProvider } from '../../activities/models/local/llama-cpp-provider';
import { loadNodeLlamaCpp } from '../../activities/models/local/load-node-llama-cpp';
import { ensureSmolLM2Weights } from '../../activities/models/local/model-weights';
import type { ModelSettings } from '../../domain';

/**
 * `--model local` (or THOUGHTLINE_MODEL=local): SmolLM2-135M-Instruct, run inside the worker by
 * llama.cpp. Provider `local` is a built-in name (model-wire.ts); the model id is what its chain
 * steps and replies show.
 */
export const LOCAL_MODEL_CHOICE = 'local';
/**
 * 512 tokens a reply, not the default 2,048: a 135M model decoding greedily can repeat itself to
 * the limit (test/fixtures/local-model), and the loop retries a cut reply with twice as many.
 */
export const LOCAL_MODEL: Pick<ModelSettings, 'provider' | 'model' | 'maxTokens'> = {
  provider: 'local',
  model: 'smollm2-135m-instruct',
  maxTokens: 512,
};

/** The provider and model a `--model` value names when it names the local model; else undefined. */
export const localModelOf = (
  choice: string | undefined,
): Pick<ModelSettings, 'provider' | 'model' | 'maxTokens'> | undefined =>
  choice === LOCAL_MODEL_CHOICE ? { ...LOCAL_MODEL } : undefined;

/**
 * The worker's `local` provider. node-llama-cpp is checked first: without it (an optional peer
 * dependency) this rejects with `LocalModelRuntimeMissingError`, which names the install command,
 * before any download. The weights (98 MB) are fetched next, here, on the first use of
 * a cache (THOUGHTLINE_MODELS_DIR, else .thoughtline/models), not inside a model call: a download
 * must not count against an activity's timeout. The model itself loads on the first call.
 */
export async function setupLocalModel(log: (line: string) => void): Promise<LlamaCppProvider> {
  await loadNodeLlamaCpp();
  const modelPath = await ensureSmolLM2Weights({ log });
  log(`runs that name provider "${LOCAL_MODEL.provider}" use ${LOCAL_MODEL.model} in this process (${modelPath})`);
  return createLlamaCppProvider({ modelPath, name: LOCAL_MODEL.provider });
}
