import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
type Event = temporal.api.history.v1.IHistoryEvent;
const T = temporal.api.enums.v1.EventType;

const ms = (e: Event): number => Number(e.eventTime?.seconds ?? 0) * 1000 + Math.round((e.eventTime?.nanos ?? 0) / 1e6);

/**
 * One run's iterations, as the server timed them: from one model call's scheduling to the next's,
 * so each covers the model's time, the tool's, and the workflow tasks between them. Pure.
 */
export function iterationIntervals(history: History, modelActivity = 'callModel'): number[] {
  const scheduled = (history.events ?? [])
    .filter(
      (e) =>
        e.eventType === T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED &&
        e.activityTaskScheduledEventAttributes?.activityType?.name === modelActivity,
    )
    .map(ms);
  return scheduled.slice(1).map((t, i) => t - scheduled[i]!);
}
