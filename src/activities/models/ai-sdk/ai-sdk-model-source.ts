import { ApplicationFailure } from '@temporalio/common';
import { FailureType } from '../../../domain';
import type { AiSdkLanguageModel } from './ai-sdk-types';

/**
 * What a worker hands the adapter: one language model (`openai('gpt-4o')`), which serves only its
 * own id, or a provider (`openai`, `createAnthropic({...})`, anything with `languageModel(id)`),
 * which serves whatever id the request names.
 */
export type AiSdkModelSource = AiSdkLanguageModel | { languageModel(modelId: string): AiSdkLanguageModel };

export const isLanguageModel = (source: AiSdkModelSource): source is AiSdkLanguageModel =>
  typeof (source as Partial<AiSdkLanguageModel>).doStream === 'function';

/**
 * The model that answers `requestedModel`. Every refusal is non-retryable: the worker's wiring,
 * not the network, decides it, so another attempt would meet the same answer.
 */
export function languageModelFor(
  source: AiSdkModelSource,
  requestedModel: string,
  providerName: string,
): AiSdkLanguageModel {
  if (isLanguageModel(source)) {
    if (source.modelId !== requestedModel) {
      throw refusal(
        FailureType.ModelNotFound,
        `${providerName} is registered with the one AI SDK model "${source.modelId}" and cannot answer for ` +
          `"${requestedModel}"; register the AI SDK provider (e.g. \`openai\`, not \`openai('${source.modelId}')\`) to serve any id.`,
      );
    }
    return checkSpecification(source, providerName);
  }
  let model: AiSdkLanguageModel;
  try {
    model = source.languageModel(requestedModel);
  } catch (error) {
    // NoSuchModelError, or a provider that validates ids: the id is wrong, not the moment.
    throw refusal(
      FailureType.ModelNotFound,
      `${providerName} has no model "${requestedModel}": ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return checkSpecification(model, providerName);
}

/** Only specification v4 is read; an older model's stream parts and warnings differ in shape. */
function checkSpecification(model: AiSdkLanguageModel, providerName: string): AiSdkLanguageModel {
  const version = (model as { specificationVersion?: unknown }).specificationVersion;
  if (version === 'v4') return model;
  throw refusal(
    FailureType.ModelBadRequest,
    `${providerName}/${model.modelId} implements the AI SDK language-model specification ${String(version)}; ` +
      'this adapter reads v4 (the @ai-sdk/* 4.x providers, `ai` 7).',
  );
}

const refusal = (type: FailureType, message: string): ApplicationFailure =>
  ApplicationFailure.create({ type, nonRetryable: true, message });
