import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { ModelProvider } from '../../src/activities';
import type { ScriptedModel } from '../../src/activities/models/scripted-model';
import { useTool } from '../../src/activities/models/scripted-model';
import type { AssistantBlock, ModelRequest } from '../../src/domain';
import { lastToolResults, pollFor } from './approval-helpers';

/** Workflow ids of the child runs a run has started, read from its history (no worker, no query). */
export async function childRunIds(client: Client, workflowId: string): Promise<string[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).flatMap((e) => {
    const id = e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
    return id ? [id] : [];
  });
}

/** The ids of a run's children once it has started `count` of them. */
export function waitForChildren(client: Client, workflowId: string, count = 1, timeoutMs = 30_000): Promise<string[]> {
  return pollFor(
    `${count} child run(s) of ${workflowId}`,
    async () => {
      const ids = await childRunIds(client, workflowId);
      return ids.length >= count ? ids : undefined;
    },
    timeoutMs,
    100,
  );
}

/** True when the server has never heard of the workflow id; other errors propagate. */
export async function neverStarted(client: Client, workflowId: string): Promise<boolean> {
  try {
    await client.workflow.getHandle(workflowId).describe();
    return false;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return true;
    throw err;
  }
}

/** A turn that finishes with exactly what the last tool result said, so a child's answer flows up verbatim. */
export const finishWithLastResult =
  (prefix = '') =>
  (request: ModelRequest): AssistantBlock[] => {
    const [last] = lastToolResults(request.messages);
    return [useTool('finish', { result: `${prefix}${last?.content ?? '(no tool result)'}` })];
  };

/** A held provider that keeps its script's record of calls and its `verify`, for `modelsByName`. */
export const withScript = (provider: ModelProvider, script: ScriptedModel): ScriptedModel => ({
  name: provider.name,
  complete: (request, signal, hooks) => provider.complete(request, signal, hooks),
  calls: script.calls,
  verify: () => script.verify(),
});
