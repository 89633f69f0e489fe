import type { Client } from '@temporalio/client';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { ChainArchive } from '../shared';

/**
 * The steps Temporal run `runId` left behind when it continued as new, read from its last event
 * (the continue-as-new input, decoded with the client's converter, so encrypted runs read too):
 * one event fetched, no worker and no replay. Undefined when that handover carried no archive
 * (runs recorded before archives existed) or the event says nothing readable.
 */
export async function readChainArchive(client: Client, workflowId: string, runId: string): Promise<ChainArchive | undefined> {
  const { history } = await client.workflowService.getWorkflowExecutionHistoryReverse({
    namespace: client.options.namespace,
    execution: { workflowId, runId },
    maximumPageSize: 1,
  });
  const payloads = history?.events?.[0]?.workflowExecutionContinuedAsNewEventAttributes?.input?.payloads;
  if (!payloads?.length) return undefined;
  const [input] = await decodeArrayFromPayloads(client.options.loadedDataConverter, payloads);
  const archive = (input as { continued?: { archive?: unknown } } | undefined)?.continued?.archive;
  const parsed = ChainArchive.safeParse(archive);
  return parsed.success ? parsed.data : undefined;
}
