import type { ModelProvider } from '../activities';
import { createAnthropicProvider } from '../activities/models/anthropic-provider';
import { createOpenAICompatibleProvider } from '../activities/models/openai-compatible-provider';
import { CLAUDE_PRICES, type PriceTable } from '../activities/models/pricing';
import type { ModelRegistry } from '../shared';
import type { Config } from '../config';
import { offlineWeatherScript } from '../demo/offline-weather-model';
import { startFakeMessagesServer } from '../testing';

export interface ModelSetup {
  models: { anthropic: ModelProvider; 'openai-compatible'?: ModelProvider };
  /** True when no API key is set and a local fake of the Messages API stands in for Claude. */
  offline: boolean;
  /** Values the worker must redact. */
  secrets: string[];
  close(): Promise<void>;
}

/** Enough turns for a long-lived offline worker; each turn is the same stateless function. */
const OFFLINE_TURNS = 10_000;

/**
 * Claude when ANTHROPIC_API_KEY is set; otherwise the offline demo model served by the fake
 * Messages server over real HTTP, so the same provider code runs either way.
 */
export async function setupModels(config: Readonly<Config>, log: (line: string) => void): Promise<ModelSetup> {
  const registry = config.modelRegistry;
  const local = registry?.openaiCompatibleBaseUrl
    ? { 'openai-compatible': createOpenAICompatibleProvider({ baseURL: registry.openaiCompatibleBaseUrl, prices: registryPrices(registry, 'openai-compatible') }) }
    : {};
  const prices = { ...CLAUDE_PRICES, ...(registry ? registryPrices(registry, 'anthropic') : {}) };
  if (config.anthropicApiKey) {
    const provider = createAnthropicProvider({
      apiKey: config.anthropicApiKey,
      prices,
      ...(config.anthropicBaseUrl ? { baseURL: config.anthropicBaseUrl } : {}),
    });
    return { models: { anthropic: provider, ...local }, offline: false, secrets: [config.anthropicApiKey], close: async () => {} };
  }
  const fake = await startFakeMessagesServer({ script: offlineWeatherScript(OFFLINE_TURNS) });
  log(
    `No ANTHROPIC_API_KEY is set, so this runs an offline scripted model: a local fake of the ` +
      `Anthropic Messages API at ${fake.baseUrl}. It only knows the demo weather task. ` +
      `Set ANTHROPIC_API_KEY to use Claude.`,
  );
  const provider = createAnthropicProvider({ apiKey: 'offline-demo-key', baseURL: fake.baseUrl, prices });
  return { models: { anthropic: provider, ...local }, offline: true, secrets: [], close: () => fake.close() };
}

/** The registry's prices for one provider's models, keyed by model id as providers look them up. */
function registryPrices(registry: ModelRegistry, provider: string): PriceTable {
  const entries = Object.values(registry.models).filter((m) => m.provider === provider && m.price);
  return Object.fromEntries(entries.map((m) => [m.model, m.price!]));
}
