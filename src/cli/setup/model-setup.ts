import type { ModelProvider } from '../../activities';
import type { ModelEndpoint } from '../../activities/models/endpoints/endpoint-balancer';
import { registryEndpoints } from '../../activities/models/endpoints/registry-endpoints';
import { createAnthropicProvider } from '../../activities/models/anthropic/anthropic-provider';
import { createOpenAICompatibleProvider } from '../../activities/models/openai/openai-compatible-provider';
import { CLAUDE_PRICES, type PriceTable } from '../../activities/models/pricing';
import type { ModelRegistry } from '../../domain';
import type { Config } from '../../config';
import { createOfflineModel } from '../../offline/offline-model';
import { LOCAL_MODEL_CHOICE, setupLocalModel } from './local-model-setup';

export interface ModelSetup {
  /** `offline` is always there: a run (an evaluation's variant) may ask for the offline model by its own name. */
  models: {
    anthropic: ModelProvider;
    offline: ModelProvider;
    'openai-compatible'?: ModelProvider;
    local?: ModelProvider;
  };
  /** The registry's entries with their own endpoint (sdk, baseURL, apiKeyEnv, region), by entry name. */
  endpoints: Record<string, ModelEndpoint>;
  /** True when no API key is set and the offline model (src/offline) stands in for Claude. */
  offline: boolean;
  /** Values the worker must redact. */
  secrets: string[];
  close(): Promise<void>;
}

/**
 * Claude when ANTHROPIC_API_KEY is set; otherwise the offline model: deterministic and local, it
 * calls whichever of the worker's tools fit the task and answers with their results quoted (the
 * weather demo keeps its own script). Runs that name the `anthropic` provider get it.
 */
export async function setupModels(config: Readonly<Config>, log: (line: string) => void): Promise<ModelSetup> {
  const registry = config.modelRegistry;
  const routed = registry ? await registryEndpoints(registry) : { endpoints: {}, secrets: [] };
  const local = registry?.openaiCompatibleBaseUrl
    ? {
        'openai-compatible': createOpenAICompatibleProvider({
          baseURL: registry.openaiCompatibleBaseUrl,
          prices: registryPrices(registry, 'openai-compatible'),
        }),
      }
    : {};
  // THOUGHTLINE_MODEL=local (or run --model local): the embedded model, its weights fetched now.
  const inProcess = config.model === LOCAL_MODEL_CHOICE ? await setupLocalModel(log) : undefined;
  const offline = createOfflineModel();
  const others = { ...local, ...(inProcess ? { local: inProcess } : {}), offline };
  const prices = { ...CLAUDE_PRICES, ...(registry ? registryPrices(registry, 'anthropic') : {}) };
  if (config.anthropicApiKey) {
    const provider = createAnthropicProvider({
      apiKey: config.anthropicApiKey,
      prices,
      ...(config.anthropicBaseUrl ? { baseURL: config.anthropicBaseUrl } : {}),
    });
    return {
      models: { anthropic: provider, ...others },
      endpoints: routed.endpoints,
      offline: false,
      secrets: [config.anthropicApiKey, ...routed.secrets],
      close: async () => inProcess?.dispose(),
    };
  }
  log(
    'No ANTHROPIC_API_KEY is set, so runs use the offline model: it calls the tools whose name or ' +
      'description shares words with the task, and answers with their results quoted (marked "[offline model]"). ' +
      'Set ANTHROPIC_API_KEY to use Claude.',
  );
  return {
    models: { anthropic: offline, ...others },
    endpoints: routed.endpoints,
    offline: true,
    secrets: routed.secrets,
    close: async () => inProcess?.dispose(),
  };
}

/** The registry's prices for one provider's models, keyed by model id as providers look them up. */
function registryPrices(registry: ModelRegistry, provider: string): PriceTable {
  const entries = Object.values(registry.models).filter((m) => m.provider === provider && m.price);
  return Object.fromEntries(entries.map((m) => [m.model, m.price!]));
}
