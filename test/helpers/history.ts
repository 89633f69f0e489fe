import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const EventType = temporal.api.enums.v1.EventType;

/** Activity types scheduled in a run's history, in order, with their UI summaries. */
export async function scheduledActivities(
  client: Client,
  workflowId: string,
): Promise<Array<{ type: string; summary?: string }>> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const converter = client.options.loadedDataConverter.payloadConverter;
  return (history.events ?? [])
    .filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
    .map((e) => {
      const summary = e.userMetadata?.summary;
      return {
        type: e.activityTaskScheduledEventAttributes?.activityType?.name ?? '?',
        ...(summary ? { summary: converter.fromPayload<string>(summary) } : {}),
      };
    });
}

/** Size of one Temporal run's history: encoded bytes and event count. */
export async function historySize(
  client: Client,
  workflowId: string,
  runId: string,
): Promise<{ bytes: number; events: number }> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  return {
    bytes: temporal.api.history.v1.History.encode(history).finish().length,
    events: history.events?.length ?? 0,
  };
}

/** The ids of the `patched()` calls a history recorded (its `core_patch` markers, JSON `{ id, deprecated }`), in order. */
export function patchIds(history: temporal.api.history.v1.IHistory): string[] {
  return (history.events ?? []).flatMap((e) => {
    const data =
      e.markerRecordedEventAttributes?.markerName === 'core_patch'
        ? e.markerRecordedEventAttributes.details?.['patch-data']?.payloads?.[0]?.data
        : undefined;
    return data ? [(JSON.parse(Buffer.from(data).toString('utf8')) as { id: string }).id] : [];
  });
}
