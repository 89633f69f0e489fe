import type { AiSdkPackage } from '../../../domain';
import type { ModelProvider } from '../../../domain/model/model-provider';
import { createAiSdkProvider } from '../ai-sdk/ai-sdk-provider';
import type { AiSdkModelSource } from '../ai-sdk/ai-sdk-model-source';
import type { EndpointSettings } from './endpoint-settings';
import { RegistryEndpointError } from './registry-endpoint-error';

/** Each package's provider factory, as the package exports it. */
const FACTORIES: Readonly<Record<AiSdkPackage, string>> = {
  openai: 'createOpenAI',
  anthropic: 'createAnthropic',
  google: 'createGoogleGenerativeAI',
  'google-vertex': 'createVertex',
  'amazon-bedrock': 'createAmazonBedrock',
  azure: 'createAzure',
  mistral: 'createMistral',
  groq: 'createGroq',
  xai: 'createXai',
  deepseek: 'createDeepSeek',
  'openai-compatible': 'createOpenAICompatible',
};

type Factory = (settings: Record<string, unknown>) => AiSdkModelSource;

/**
 * A registry entry's endpoint built from its AI SDK package: the user installs the package
 * (`npm i @ai-sdk/google`); the worker imports it only when an entry names it.
 */
export async function aiSdkEndpoint(
  sdk: AiSdkPackage,
  settings: EndpointSettings,
  entry: string,
): Promise<ModelProvider> {
  const pkg = `@ai-sdk/${sdk}`;
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pkg)) as Record<string, unknown>;
  } catch {
    throw new RegistryEndpointError(entry, `it needs the package ${pkg}; install it with npm i ${pkg}`);
  }
  const factory = loaded[FACTORIES[sdk]];
  if (typeof factory !== 'function')
    throw new RegistryEndpointError(entry, `${pkg} exports no ${FACTORIES[sdk]}; is it a 4.x version?`);
  const provider = (factory as Factory)(factorySettings(sdk, settings, entry));
  return createAiSdkProvider(provider, { name: entry, ...(settings.prices ? { prices: settings.prices } : {}) });
}

/**
 * The factory's own names: Vertex calls the region its location; OpenAI-compatible needs a name,
 * and asks for usage in its streams only with `includeUsage` (without it, Chat Completions servers
 * send none, and every call would count 0 tokens and cost nothing against the run's budgets).
 */
function factorySettings(sdk: AiSdkPackage, settings: EndpointSettings, entry: string): Record<string, unknown> {
  const { baseURL, apiKey, region } = settings;
  return {
    ...(baseURL ? { baseURL } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(region ? (sdk === 'google-vertex' ? { location: region } : { region }) : {}),
    ...(sdk === 'openai-compatible' ? { name: entry, includeUsage: true } : {}),
  };
}
