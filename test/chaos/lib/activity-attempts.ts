import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const EventType = temporal.api.enums.v1.EventType;

export interface ActivityAttempts {
  type: string;
  /** Attempts Temporal made, from the activity's started event (1 when it never had to retry). */
  attempts: number;
  /** The activity's first argument, decoded. */
  input: unknown;
  /** Why the attempt before the last one failed (a timeout after a kill, say), when there was one. */
  lastFailure?: string;
}

/**
 * Every activity a run scheduled, in order, with how many attempts it took: over all its Temporal
 * runs, oldest first (a run that continued as new has one history per Temporal run).
 */
export async function activityAttempts(client: Client, workflowId: string): Promise<ActivityAttempts[]> {
  const histories: temporal.api.history.v1.IHistory[] = [];
  for (let runId: string | undefined = undefined; ;) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    histories.unshift(history);
    runId = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
    if (!runId) break;
  }
  return histories.flatMap((history) => attemptsOf(history, client.options.loadedDataConverter.payloadConverter));
}

function attemptsOf(
  history: temporal.api.history.v1.IHistory,
  converter: Client['options']['loadedDataConverter']['payloadConverter'],
): ActivityAttempts[] {
  const events = history.events ?? [];
  const startedOf = new Map<string, { attempt: number; lastFailure?: string }>();
  for (const e of events) {
    const started = e.activityTaskStartedEventAttributes;
    if (e.eventType !== EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED || !started) continue;
    const failure = started.lastFailure;
    const lastFailure = failure ? [failure.message, failure.cause?.message].filter(Boolean).join(': ') : undefined;
    startedOf.set(String(started.scheduledEventId), {
      attempt: started.attempt ?? 1,
      ...(lastFailure ? { lastFailure } : {}),
    });
  }
  return events
    .filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
    .map((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes;
      const payload = scheduled?.input?.payloads?.[0];
      const started = startedOf.get(String(e.eventId));
      return {
        type: scheduled?.activityType?.name ?? '?',
        attempts: started?.attempt ?? 0,
        input: payload ? converter.fromPayload(payload) : undefined,
        ...(started?.lastFailure ? { lastFailure: started.lastFailure } : {}),
      };
    });
}
