import type { Client } from '@temporalio/client';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import type { temporal } from '@temporalio/proto';
import { localActivityOf } from './local-activity-marker';

/** One activity of a Temporal run as its history records it: the input, and the result or why there is none. */
export interface RecordedActivity {
  type: string;
  input: unknown;
  /** Absent until it completed. */
  result?: unknown;
  error?: string;
}

/**
 * The activities of one type (or several) in a Temporal run, in the order scheduled, their
 * payloads decoded with the client's converter (so encrypted runs read too). Reads the whole
 * history once, no worker. With `localActivities`, local ones too, from their markers: those
 * record no input (`input` is undefined).
 */
export async function recordedActivities(
  client: Client,
  workflowId: string,
  runId: string,
  activityTypes: string | readonly string[],
  options: { localActivities?: boolean } = {},
): Promise<RecordedActivity[]> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  const converter = client.options.loadedDataConverter;
  const wanted = new Set(typeof activityTypes === 'string' ? [activityTypes] : activityTypes);
  const byEvent = new Map<string, RecordedActivity>();
  const recorded: RecordedActivity[] = [];
  for (const event of history.events ?? []) {
    const local = options.localActivities ? localActivityOf(event) : undefined;
    if (local && wanted.has(local.type)) {
      const activity: RecordedActivity = { type: local.type, input: undefined };
      if ('payloads' in local) [activity.result] = await decodeArrayFromPayloads(converter, local.payloads);
      else activity.error = local.error;
      recorded.push(activity);
      continue;
    }
    const scheduled = event.activityTaskScheduledEventAttributes;
    const type = scheduled?.activityType?.name;
    if (type && wanted.has(type)) {
      const [input] = await decodeArrayFromPayloads(converter, scheduled.input?.payloads);
      const activity: RecordedActivity = { type, input };
      recorded.push(activity);
      byEvent.set(String(event.eventId), activity);
      continue;
    }
    const ended = endOf(event);
    const activity = ended ? byEvent.get(ended.scheduledEventId) : undefined;
    if (!activity || !ended) continue;
    if ('payloads' in ended) [activity.result] = await decodeArrayFromPayloads(converter, ended.payloads);
    else activity.error = ended.error;
  }
  return recorded;
}

function endOf(
  event: temporal.api.history.v1.IHistoryEvent,
): ({ scheduledEventId: string } & ({ payloads: temporal.api.common.v1.IPayload[] } | { error: string })) | undefined {
  const done = event.activityTaskCompletedEventAttributes;
  if (done) return { scheduledEventId: String(done.scheduledEventId), payloads: done.result?.payloads ?? [] };
  const failed = event.activityTaskFailedEventAttributes;
  if (failed) return { scheduledEventId: String(failed.scheduledEventId), error: failed.failure?.message ?? 'failed' };
  const timedOut = event.activityTaskTimedOutEventAttributes;
  if (timedOut) return { scheduledEventId: String(timedOut.scheduledEventId), error: 'timed out' };
  const cancelled = event.activityTaskCanceledEventAttributes;
  if (cancelled) return { scheduledEventId: String(cancelled.scheduledEventId), error: 'cancelled' };
  return undefined;
}
