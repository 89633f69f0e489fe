import { hasOwnEndpoint, type AiSdkPackage, type ModelRegistry, type RegisteredModel } from '../../../domain';
import type { ModelProvider } from '../../../domain/model/model-provider';
import { createAnthropicProvider } from '../anthropic/anthropic-provider';
import { createOpenAICompatibleProvider } from '../openai/openai-compatible-provider';
import type { EndpointSettings } from './endpoint-settings';
import type { ModelEndpoint } from './endpoint-balancer';
import { aiSdkEndpoint } from './ai-sdk-packages';
import { RegistryEndpointError } from './registry-endpoint-error';

/** Builds a provider from an AI SDK package; default ai-sdk-packages.ts. */
export type { EndpointSettings };

export type AiSdkEndpointFactory = (
  sdk: AiSdkPackage,
  settings: EndpointSettings,
  name: string,
) => Promise<ModelProvider>;

export interface RegistryEndpoints {
  endpoints: Record<string, ModelEndpoint>;
  /** The API keys read, for the worker to redact. */
  secrets: string[];
}

/**
 * The endpoints of a registry's entries that have their own (an `sdk`, `baseURL`, `apiKeyEnv` or
 * `region`), by entry name. Fails at worker start, naming the entry, for a key variable that is
 * not set or an entry no provider can serve: a worker never starts half configured.
 */
export async function registryEndpoints(
  registry: ModelRegistry,
  options: { env?: NodeJS.ProcessEnv; aiSdk?: AiSdkEndpointFactory } = {},
): Promise<RegistryEndpoints> {
  const env = options.env ?? process.env;
  const endpoints: Record<string, ModelEndpoint> = {};
  const secrets: string[] = [];
  for (const [name, entry] of Object.entries(registry.models)) {
    if (!hasOwnEndpoint(entry)) continue;
    const settings = settingsOf(name, entry, env);
    if (settings.apiKey) secrets.push(settings.apiKey);
    endpoints[name] = {
      provider: await providerOf(name, entry, settings, options.aiSdk ?? aiSdkEndpoint),
      model: entry.model,
    };
  }
  return { endpoints, secrets };
}

function settingsOf(name: string, entry: RegisteredModel, env: NodeJS.ProcessEnv): EndpointSettings {
  const apiKey = entry.apiKeyEnv !== undefined ? env[entry.apiKeyEnv] : undefined;
  if (entry.apiKeyEnv !== undefined && !apiKey)
    throw new RegistryEndpointError(name, `its API key variable ${entry.apiKeyEnv} is not set on this worker`);
  return {
    ...(entry.baseURL ? { baseURL: entry.baseURL } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(entry.region ? { region: entry.region } : {}),
    ...(entry.price ? { prices: { [entry.model]: entry.price } } : {}),
  };
}

async function providerOf(
  name: string,
  entry: RegisteredModel,
  settings: EndpointSettings,
  aiSdk: AiSdkEndpointFactory,
): Promise<ModelProvider> {
  if (entry.sdk) return aiSdk(entry.sdk, settings, name);
  if (entry.provider === 'anthropic') return createAnthropicProvider(settings);
  if (entry.provider === 'openai-compatible') {
    if (!settings.baseURL) throw new RegistryEndpointError(name, 'an openai-compatible entry needs its baseURL');
    return createOpenAICompatibleProvider({ ...settings, baseURL: settings.baseURL });
  }
  throw new RegistryEndpointError(
    name,
    `provider "${entry.provider}" is not built in; name the AI SDK package that serves it in "sdk"`,
  );
}
