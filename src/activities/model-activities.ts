import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { FailureType, type ModelReply, type ModelRequest } from '../shared';
import type { ModelProvider } from './models/model-provider';

export interface ModelActivityDeps {
  models: Readonly<Partial<Record<ModelRequest['provider'], ModelProvider>>>;
}

export function createModelActivities({ models }: ModelActivityDeps) {
  return {
    /** One model call. Providers throw typed ApplicationFailures; Temporal retries the retryable ones. */
    async callModel(request: ModelRequest): Promise<ModelReply> {
      const provider = models[request.provider];
      if (!provider) {
        const configured = Object.keys(models).join(', ') || '(none)';
        const message = `No "${request.provider}" model provider on this worker (configured: ${configured}).`;
        throw ApplicationFailure.create({ type: FailureType.ModelProviderMissing, message, nonRetryable: true });
      }
      return provider.complete(request, Context.current().cancellationSignal);
    },
  };
}
