import { ApplicationFailure } from '@temporalio/common';
import { FailureType } from '../../../shared';
import { LocalModelRuntimeMissingError } from './load-node-llama-cpp';

const PREFIX = 'local model';

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Loading the model failed. node-llama-cpp not installed, or a missing or unreadable file, fails the same way on every attempt, so
 * it is final; running out of memory may pass once other work ends, so it is retried.
 */
export function classifyLoadError(error: unknown, modelPath: string): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  // Every attempt would fail the same way until someone installs it: final, saying how.
  if (error instanceof LocalModelRuntimeMissingError)
    return ApplicationFailure.create({
      type: FailureType.ModelNotFound,
      nonRetryable: true,
      message: `${PREFIX}: ${error.message}`,
    });
  const message = messageOf(error);
  if (/insufficient ?memory|out of memory|InsufficientMemoryError/i.test(`${message} ${(error as Error)?.name}`))
    return ApplicationFailure.create({
      type: FailureType.ModelOverloaded,
      nonRetryable: false,
      message: `${PREFIX}: not enough memory to load ${modelPath}: ${message}`,
    });
  return ApplicationFailure.create({
    type: FailureType.ModelNotFound,
    nonRetryable: true,
    message: `${PREFIX}: cannot load ${modelPath}: ${message}`,
  });
}

/** The conversation does not fit the context window: no attempt can fit it. */
export const promptTooLarge = (promptTokens: number, contextSize: number): ApplicationFailure =>
  ApplicationFailure.create({
    type: FailureType.ModelRequestTooLarge,
    nonRetryable: true,
    message: `${PREFIX}: the conversation is ${promptTokens} tokens and the context holds ${contextSize}; give the provider a larger contextSize or shorten the run.`,
  });

/** The tools' schemas could not become a grammar: the same tools fail every time. */
export const grammarFailure = (error: unknown): ApplicationFailure =>
  ApplicationFailure.create({
    type: FailureType.ModelBadRequest,
    nonRetryable: true,
    message: `${PREFIX}: the tools' input schemas cannot be turned into a grammar: ${messageOf(error)}`,
  });

/** Generation failed inside llama.cpp (not an abort): retried, as a server error would be. */
export function classifyGenerationError(error: unknown): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  return ApplicationFailure.create({
    type: FailureType.ModelServerError,
    nonRetryable: false,
    message: `${PREFIX}: generation failed: ${messageOf(error)}`,
  });
}
