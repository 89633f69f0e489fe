import { ApplicationFailure } from '@temporalio/common';
import { FailureType, type ModelReply, type ModelRequest } from '../../domain';
import type { JudgeSettings } from '../../domain/evaluation/evaluation-input';
import type { ModelActivityDeps } from '../model-activities';
import { EndpointBalancer } from '../models/endpoints/endpoint-balancer';
import { JUDGE_SYSTEM } from './judge-prompt';

/** How the judge reaches its model: the worker's providers, named endpoints and model governance, as `callModel` has them. */
export type JudgeDeps = Pick<ModelActivityDeps, 'models' | 'endpoints' | 'isModelAllowed'>;

/**
 * One call of the pinned judge model: no fallbacks (a judge that changes model is no longer the
 * same judge), no tools, the model's own sampling. Throws the provider's typed failures (retryable
 * or not); a missing provider or a model outside the allow-list is non-retryable, as in callModel.
 */
export function createJudgeCaller({ models, endpoints = {}, isModelAllowed }: JudgeDeps) {
  const balancer = new EndpointBalancer(endpoints);
  return async (
    judge: JudgeSettings,
    prompt: string,
    signal: AbortSignal,
    heartbeat: () => void,
  ): Promise<ModelReply> => {
    const { model } = judge;
    const routed = model.endpoints ? balancer.pick(model.endpoints) : undefined;
    const provider = routed?.provider ?? (model.endpoints ? undefined : models[model.provider]);
    if (!provider) {
      const message = model.endpoints
        ? `None of the judge's endpoints ${model.endpoints.join(', ')} is on this worker.`
        : `No "${model.provider}" model provider on this worker for the judge (configured: ${Object.keys(models).join(', ') || '(none)'}).`;
      throw ApplicationFailure.create({ type: FailureType.ModelProviderMissing, message, nonRetryable: true });
    }
    const modelId = routed?.model ?? model.model;
    if (isModelAllowed && !isModelAllowed(model.provider, modelId))
      throw ApplicationFailure.create({
        type: FailureType.ModelNotAllowed,
        message: `Judge model ${model.provider}/${modelId} is not allowed by this worker's model registry.`,
        nonRetryable: true,
      });
    const request: ModelRequest = {
      provider: model.provider,
      model: modelId,
      system: JUDGE_SYSTEM,
      messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
      tools: [],
      toolChoice: 'auto',
      maxTokens: model.maxTokens,
      ...(model.sampling ? { sampling: model.sampling } : {}),
    };
    try {
      return await provider.complete(request, signal, { heartbeat });
    } catch (err) {
      routed?.failed(err);
      throw err;
    }
  };
}
