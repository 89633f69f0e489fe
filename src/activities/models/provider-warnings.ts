import type { ModelProvider } from '../../domain/model/model-provider';

/** What a worker says at start about its providers: each one's `startWarning`, named by the provider it serves. */
export function providerWarnings(models: Readonly<Partial<Record<string, ModelProvider>>>): string[] {
  return Object.entries(models).flatMap(([provider, model]) =>
    model?.startWarning ? [`Model provider "${provider}": ${model.startWarning}`] : [],
  );
}
