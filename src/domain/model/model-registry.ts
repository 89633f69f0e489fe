import { z } from 'zod';
import { ModelProviderName, SamplingSettings } from './model-wire';
import { ownValue } from '../text/own-value';
import { ModelPrice, type FallbackModel, type ModelSettings } from './model-settings';
import { ModelTier } from './model-tier';

/**
 * AI SDK provider packages a registry entry may name (`sdk`); the worker imports the package
 * (installed by the user) and builds the entry's endpoint with its `create…` factory.
 */
export const AI_SDK_PACKAGES = [
  'openai',
  'anthropic',
  'google',
  'google-vertex',
  'amazon-bedrock',
  'azure',
  'mistral',
  'groq',
  'xai',
  'deepseek',
  'openai-compatible',
] as const;
export const AiSdkPackage = z.enum(AI_SDK_PACKAGES);
export type AiSdkPackage = z.infer<typeof AiSdkPackage>;

/** Letters, digits and `_`, not starting with a digit (no regex: this module also loads in the workflow sandbox). */
function isEnvVarName(name: string): boolean {
  return [...name].every(
    (c, i) => c === '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (i > 0 && c >= '0' && c <= '9'),
  );
}

/** An environment variable's name: it is read on the worker, and the key itself is never written down. */
const EnvVarName = z
  .string()
  .min(1)
  .max(128)
  .refine(isEnvVarName, 'an environment variable name, e.g. OPENAI_API_KEY_EU');

export const RegisteredModel = z
  .object({
    provider: ModelProviderName,
    /** The provider's own id, e.g. `claude-sonnet-4-6` or `llama3.1:8b`. */
    model: z.string().min(1),
    maxTokens: z.number().int().positive().optional(),
    price: ModelPrice.optional(),
    /** How capable the model is (`low`, `medium`, `high`): ask_model routes a plan task to the cheapest model whose tier covers its complexity. */
    tier: ModelTier.optional(),
    /** Names of other registered models to fall back to, in order. */
    fallbacks: z.array(z.string()).default([]),
    /** `react-text` for a model without tool calling; default the run's own. */
    strategy: z.enum(['native', 'react-text']).optional(),
    /** This model's default temperature, topP, topK, seed; a run's own settings win. */
    sampling: SamplingSettings.optional(),
    /** Built with this AI SDK provider package (docs/models.md); else Thoughtline's own provider. */
    sdk: AiSdkPackage.optional(),
    /** This entry's own endpoint, e.g. an EU and a US deployment of one provider side by side. */
    baseURL: z.url().optional(),
    /** The environment variable holding this entry's API key. */
    apiKeyEnv: EnvVarName.optional(),
    /** The cloud region (Bedrock) or location (Vertex) this entry calls. */
    region: z.string().min(1).max(64).optional(),
    /** Entries of one group serve a run that names the group: each call goes to one, in turn, skipping any that just failed. */
    group: z.string().min(1).max(128).optional(),
  })
  .strict();
export type RegisteredModel = z.infer<typeof RegisteredModel>;

/** Whether an entry has its own endpoint, so calls must name it for the worker to route them. */
export const hasOwnEndpoint = (entry: RegisteredModel): boolean =>
  entry.sdk !== undefined || entry.baseURL !== undefined || entry.apiKeyEnv !== undefined || entry.region !== undefined;

/**
 * Named models an organisation allows (model governance). Clients pick models by name; workers
 * refuse any call to a provider/model pair outside `allowed`.
 */
export const ModelRegistry = z
  .object({
    models: z.record(z.string(), RegisteredModel),
    /** Names runs may use; default every registered model. */
    allowed: z.array(z.string()).optional(),
    /** Base URL of the OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio). */
    openaiCompatibleBaseUrl: z.url().optional(),
  })
  .superRefine((registry, ctx) => {
    const names = Object.keys(registry.models);
    const groups = Object.values(registry.models).flatMap((m) => (m.group ? [m.group] : []));
    for (const name of registry.allowed ?? []) {
      if (!names.includes(name))
        ctx.addIssue({
          code: 'custom',
          message: `"${name}" is not a registered model (registered: ${names.join(', ')})`,
        });
    }
    for (const name of Object.values(registry.models).flatMap((m) => m.fallbacks)) {
      if (!names.includes(name) && !groups.includes(name))
        ctx.addIssue({
          code: 'custom',
          message: `"${name}" is not a registered model (registered: ${names.join(', ')})`,
        });
    }
    for (const [name, entry] of Object.entries(registry.models)) {
      if (entry.group !== undefined && names.includes(entry.group))
        ctx.addIssue({ code: 'custom', message: `"${name}": its group "${entry.group}" is also a model's name` });
      if (entry.region !== undefined && entry.sdk !== 'amazon-bedrock' && entry.sdk !== 'google-vertex')
        ctx.addIssue({ code: 'custom', message: `"${name}": region is for sdk "amazon-bedrock" or "google-vertex"` });
    }
  });
export type ModelRegistry = z.infer<typeof ModelRegistry>;

export class UnknownModelError extends Error {
  override readonly name = 'UnknownModelError';
}

const allowedNames = (registry: ModelRegistry): string[] => registry.allowed ?? Object.keys(registry.models);

/** A registered model as run settings (without its fallbacks). */
export type ResolvedModel = Pick<ModelSettings, 'provider' | 'model'> &
  Partial<Pick<ModelSettings, 'maxTokens' | 'price' | 'sampling' | 'endpoints'>>;

/** The allowed entries a name stands for: the entry of that name, or the entries of the group of that name. */
function entriesNamed(registry: ModelRegistry, name: string): [string, RegisteredModel][] {
  const allowed = allowedNames(registry);
  const entry = ownValue(registry.models, name);
  if (entry) return allowed.includes(name) ? [[name, entry]] : [];
  return Object.entries(registry.models).filter(([n, e]) => e.group === name && allowed.includes(n));
}

function asSettings(entries: [string, RegisteredModel][]): ResolvedModel {
  const [name, entry] = entries[0]!;
  const routed = entries.length > 1 || hasOwnEndpoint(entry);
  return {
    provider: entry.provider,
    model: entry.model,
    ...(entry.maxTokens ? { maxTokens: entry.maxTokens } : {}),
    ...(entry.price ? { price: entry.price } : {}),
    ...(entry.sampling ? { sampling: entry.sampling } : {}),
    ...(routed ? { endpoints: entries.length > 1 ? entries.map(([n]) => n) : [name] } : {}),
  };
}

/**
 * A registered, allowed model (or group of them) as run settings, its fallbacks resolved; throws
 * for anything else. A group resolves to its first entry, with every entry as an endpoint.
 */
export function resolveModel(registry: ModelRegistry, name: string): ResolvedModel & { fallbacks: FallbackModel[] } {
  const entries = entriesNamed(registry, name);
  if (entries.length === 0) {
    const groups = [...new Set(Object.values(registry.models).flatMap((m) => (m.group ? [m.group] : [])))];
    throw new UnknownModelError(
      `Model "${name}" is not allowed. Allowed: ${[...allowedNames(registry), ...groups].join(', ')}.`,
    );
  }
  const fallbacks: FallbackModel[] = entries[0]![1].fallbacks
    .map((n) => entriesNamed(registry, n))
    .filter((found) => found.length > 0)
    .map(asSettings);
  return { ...asSettings(entries), fallbacks };
}

/** The strategy a registered model (or group) asks for, if any. */
export function registeredStrategy(registry: ModelRegistry, name: string): RegisteredModel['strategy'] {
  return entriesNamed(registry, name)[0]?.[1].strategy;
}

/** The tier a registered model (or group, by its first entry) is given, if any. */
export function registeredTier(registry: ModelRegistry, name: string): ModelTier | undefined {
  return entriesNamed(registry, name)[0]?.[1].tier;
}

/** Whether a worker may call this provider/model pair. */
export function isModelAllowed(registry: ModelRegistry, provider: string, model: string): boolean {
  return allowedNames(registry).some(
    (n) => ownValue(registry.models, n)?.provider === provider && ownValue(registry.models, n)?.model === model,
  );
}
