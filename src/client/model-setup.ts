import type { ModelProvider } from '../activities';
import { createAnthropicProvider } from '../activities/models/anthropic-provider';
import type { Config } from '../config';
import { offlineWeatherScript } from '../demo/offline-weather-model';
import { startFakeMessagesServer } from '../testing';

export interface ModelSetup {
  models: { anthropic: ModelProvider };
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
  if (config.anthropicApiKey) {
    const provider = createAnthropicProvider({
      apiKey: config.anthropicApiKey,
      ...(config.anthropicBaseUrl ? { baseURL: config.anthropicBaseUrl } : {}),
    });
    return { models: { anthropic: provider }, offline: false, secrets: [config.anthropicApiKey], close: async () => {} };
  }
  const fake = await startFakeMessagesServer({ script: offlineWeatherScript(OFFLINE_TURNS) });
  log(
    `No ANTHROPIC_API_KEY is set, so this runs an offline scripted model: a local fake of the ` +
      `Anthropic Messages API at ${fake.baseUrl}. It only knows the demo weather task. ` +
      `Set ANTHROPIC_API_KEY to use Claude.`,
  );
  const provider = createAnthropicProvider({ apiKey: 'offline-demo-key', baseURL: fake.baseUrl });
  return { models: { anthropic: provider }, offline: true, secrets: [], close: () => fake.close() };
}
