/** The in-process model's public names: the provider, and the weights it runs (fetched on first use). */
export { createLlamaCppProvider, type LlamaCppProvider, type LlamaCppProviderOptions } from './llama-cpp-provider';
export {
  ensureSmolLM2Weights,
  modelsDir,
  SMOLLM2_WEIGHTS,
  type EnsureWeightsOptions,
  type PinnedWeights,
} from './model-weights';
export { ModelWeightsError, type ModelWeightsProblem } from './model-weights-error';
export {
  LOCAL_MODEL_INSTALL_COMMAND,
  LocalModelRuntimeMissingError,
  NODE_LLAMA_CPP_VERSION,
} from './load-node-llama-cpp';
