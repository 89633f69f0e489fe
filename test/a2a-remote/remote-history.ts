import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const EventType = temporal.api.enums.v1.EventType;

export interface ActivityCount {
  scheduled: number;
  completed: number;
  /** The attempt that started last (history records only the last attempt's start). */
  lastAttempt: number;
}

/** How often each activity type of a run was scheduled and completed, from its history. */
export async function activityCounts(client: Client, workflowId: string): Promise<Record<string, ActivityCount>> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const typeOf = new Map<string, string>();
  const counts: Record<string, ActivityCount> = {};
  for (const e of history.events ?? []) {
    if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
      const type = e.activityTaskScheduledEventAttributes?.activityType?.name ?? '?';
      typeOf.set(String(e.eventId), type);
      (counts[type] ??= { scheduled: 0, completed: 0, lastAttempt: 0 }).scheduled += 1;
    }
    if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
      const type = typeOf.get(String(e.activityTaskStartedEventAttributes?.scheduledEventId)) ?? '?';
      if (counts[type]) counts[type].lastAttempt = e.activityTaskStartedEventAttributes?.attempt ?? 0;
    }
    if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
      const type = typeOf.get(String(e.activityTaskCompletedEventAttributes?.scheduledEventId)) ?? '?';
      (counts[type] ??= { scheduled: 0, completed: 0, lastAttempt: 0 }).completed += 1;
    }
  }
  return counts;
}
