import { Context } from '@temporalio/activity';
import type { ModelProvider } from '../../../src/activities';

/**
 * Many chaos runs on one worker, each with its own model (a scripted model, or the Anthropic
 * provider on its own fake server): calls are routed by the workflow id of the activity making
 * them, so one run's script is never consumed by another. Runs inside the callModel activity.
 */
export interface RunRouter {
  provider: ModelProvider;
  set(workflowId: string, provider: ModelProvider): void;
  delete(workflowId: string): void;
}

export function createRunRouter(name: string): RunRouter {
  const byRun = new Map<string, ModelProvider>();
  return {
    provider: {
      name,
      complete(request, signal, hooks) {
        const workflowId = Context.current().info.workflowExecution?.workflowId ?? '';
        const provider = byRun.get(workflowId);
        if (!provider) throw new Error(`No chaos model registered for run ${workflowId}`);
        return provider.complete(request, signal, hooks);
      },
    },
    set: (workflowId, provider) => void byRun.set(workflowId, provider),
    delete: (workflowId) => void byRun.delete(workflowId),
  };
}
