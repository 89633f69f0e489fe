import type { Client } from '@temporalio/client';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';

/**
 * The input a Temporal run started with, from its first event, decoded with the client's
 * converter (so encrypted runs read too): one event fetched, no worker and no replay. A plain
 * object, unchecked; `{}` when the event carries nothing readable.
 */
export async function readRunInput(
  client: Client,
  workflowId: string,
  runId?: string,
): Promise<Record<string, unknown>> {
  const response = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId, ...(runId ? { runId } : {}) },
    maximumPageSize: 1,
  });
  const payloads = response.history?.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads;
  if (!payloads?.length) return {};
  const [input] = await decodeArrayFromPayloads(client.options.loadedDataConverter, payloads);
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}
