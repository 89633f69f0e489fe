import { z } from 'zod';
import { ModelProviderName } from './model-wire';
import { ownValue } from './own-value';
import { ModelPrice, type FallbackModel, type ModelSettings } from './model-settings';

export const RegisteredModel = z.object({
  provider: ModelProviderName,
  /** The provider's own id, e.g. `claude-sonnet-4-6` or `llama3.1:8b`. */
  model: z.string().min(1),
  maxTokens: z.number().int().positive().optional(),
  price: ModelPrice.optional(),
  /** Names of other registered models to fall back to, in order. */
  fallbacks: z.array(z.string()).default([]),
});
export type RegisteredModel = z.infer<typeof RegisteredModel>;

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
    for (const name of [...(registry.allowed ?? []), ...Object.values(registry.models).flatMap((m) => m.fallbacks)]) {
      if (!names.includes(name))
        ctx.addIssue({
          code: 'custom',
          message: `"${name}" is not a registered model (registered: ${names.join(', ')})`,
        });
    }
  });
export type ModelRegistry = z.infer<typeof ModelRegistry>;

export class UnknownModelError extends Error {
  override readonly name = 'UnknownModelError';
}

const allowedNames = (registry: ModelRegistry): string[] => registry.allowed ?? Object.keys(registry.models);

/** A registered, allowed model as run settings, its fallbacks resolved; throws for anything else. */
export function resolveModel(
  registry: ModelRegistry,
  name: string,
): Pick<ModelSettings, 'provider' | 'model' | 'fallbacks'> & Partial<Pick<ModelSettings, 'maxTokens' | 'price'>> {
  const entry = ownValue(registry.models, name);
  if (!entry || !allowedNames(registry).includes(name)) {
    throw new UnknownModelError(`Model "${name}" is not allowed. Allowed: ${allowedNames(registry).join(', ')}.`);
  }
  const fallbacks: FallbackModel[] = entry.fallbacks
    .filter((n) => allowedNames(registry).includes(n) && Object.hasOwn(registry.models, n))
    .map((n) => {
      const f = registry.models[n]!;
      return {
        provider: f.provider,
        model: f.model,
        ...(f.maxTokens ? { maxTokens: f.maxTokens } : {}),
        ...(f.price ? { price: f.price } : {}),
      };
    });
  return {
    provider: entry.provider,
    model: entry.model,
    fallbacks,
    ...(entry.maxTokens ? { maxTokens: entry.maxTokens } : {}),
    ...(entry.price ? { price: entry.price } : {}),
  };
}

/** Whether a worker may call this provider/model pair. */
export function isModelAllowed(registry: ModelRegistry, provider: string, model: string): boolean {
  return allowedNames(registry).some(
    (n) => ownValue(registry.models, n)?.provider === provider && ownValue(registry.models, n)?.model === model,
  );
}
