import { ApplicationFailure } from '@temporalio/common';
import { FailureType } from '../../../domain';
import { LocalModelRuntimeMissingError } from './load-node-llama-cpp';
import type { Repetition } from './repetition';

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

/** Shown of the repeated unit in the failure's message: enough to recognise it. */
const UNIT_SHOWN = 80;

/**
 * The reply began repeating itself and was stopped (repetition.ts). A retry with more tokens
 * decodes the same loop again, so it is final: the run ends at once with this reason instead of
 * after three ever longer identical calls.
 */
export function repeatingReply(repetition: Repetition, outputTokens: number): ApplicationFailure {
  const unit = repetition.unit.replace(/\s+/g, ' ').trim();
  const shown = unit.length > UNIT_SHOWN ? `${unit.slice(0, UNIT_SHOWN)}…` : unit;
  return ApplicationFailure.create({
    type: FailureType.ModelRepeating,
    nonRetryable: true,
    message: `${PREFIX}: the reply began repeating itself ("${shown}" ${repetition.copies} times) and was stopped after ${outputTokens} tokens; a retry would repeat it. A model this small loops on tasks it cannot follow: name the tool to use in the task, or give the provider a larger GGUF.`,
  });
}
