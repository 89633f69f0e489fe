import type { Client } from '@temporalio/client';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import type { temporal } from '@temporalio/proto';
import { ChainArchive } from '../../domain';
import { localActivityOf } from '../history/local-activity-marker';

/** Events read from the end of a run: the handover, and the archive's marker just before it. */
const LAST_EVENTS = 10;

/**
 * The steps Temporal run `runId` left behind when it continued as new, read from its last events
 * (decoded with the client's converter, so encrypted runs read too): one page fetched, no worker
 * and no replay. Newer handovers record them once, as the result of the `keepChainArchive` local
 * activity just before the handover; older ones in the continue-as-new input. Undefined when the
 * handover left none (runs recorded before archives existed) or nothing there reads as one.
 */
export async function readChainArchive(
  client: Client,
  workflowId: string,
  runId: string,
): Promise<ChainArchive | undefined> {
  const { history } = await client.workflowService.getWorkflowExecutionHistoryReverse({
    namespace: client.options.namespace,
    execution: { workflowId, runId },
    maximumPageSize: LAST_EVENTS,
  });
  const events = history?.events ?? [];
  const handover = events[0]?.workflowExecutionContinuedAsNewEventAttributes?.input?.payloads;
  if (!handover?.length) return undefined;
  const [input] = await decodeArrayFromPayloads(client.options.loadedDataConverter, handover);
  const carried = ChainArchive.safeParse(
    (input as { continued?: { archive?: unknown } } | undefined)?.continued?.archive,
  );
  if (carried.success) return carried.data;
  const marker = events.find(isArchiveMarker)?.markerRecordedEventAttributes?.details?.['result']?.payloads;
  if (!marker?.length) return undefined;
  const [kept] = await decodeArrayFromPayloads(client.options.loadedDataConverter, marker);
  const parsed = ChainArchive.safeParse(kept);
  return parsed.success ? parsed.data : undefined;
}

/** The marker of a `keepChainArchive` local activity. */
function isArchiveMarker(event: temporal.api.history.v1.IHistoryEvent): boolean {
  return localActivityOf(event)?.type === 'keepChainArchive';
}
