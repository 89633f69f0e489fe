import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
type Event = temporal.api.history.v1.IHistoryEvent;
const T = temporal.api.enums.v1.EventType;

/** Where one run's time went, from its history's event times (server clock), in ms. */
export interface HistoryTiming {
  /** Workflow tasks waiting for a worker: scheduled to started. */
  workflowTaskQueueMs: number;
  /** Workflow tasks on the worker: started to completed (the worker's code plus one round trip). */
  workflowTaskRunMs: number;
  workflowTasks: number;
  /** Activities waiting for a worker: scheduled to started (0 when started eagerly). */
  activityQueueMs: number;
  /** Activities running: started to completed, model latency included. */
  activityRunMs: number;
  activities: number;
  /** First event to last. */
  totalMs: number;
}

const ms = (e: Event | undefined): number =>
  e?.eventTime ? Number(e.eventTime.seconds ?? 0) * 1000 + Math.round((e.eventTime.nanos ?? 0) / 1e6) : Number.NaN;

/** Splits a run's wall time into queue and run phases of its workflow tasks and activities. Pure. */
export function historyTiming(history: History): HistoryTiming {
  const events = history.events ?? [];
  const byId = new Map(events.map((e) => [Number(e.eventId), e]));
  const t: HistoryTiming = {
    workflowTaskQueueMs: 0,
    workflowTaskRunMs: 0,
    workflowTasks: 0,
    activityQueueMs: 0,
    activityRunMs: 0,
    activities: 0,
    totalMs: ms(events[events.length - 1]) - ms(events[0]),
  };
  for (const e of events) {
    if (e.eventType === T.EVENT_TYPE_WORKFLOW_TASK_STARTED) {
      t.workflowTaskQueueMs += ms(e) - ms(byId.get(Number(e.workflowTaskStartedEventAttributes?.scheduledEventId)));
    } else if (e.eventType === T.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
      t.workflowTaskRunMs += ms(e) - ms(byId.get(Number(e.workflowTaskCompletedEventAttributes?.startedEventId)));
      t.workflowTasks += 1;
    } else if (e.eventType === T.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
      t.activityQueueMs += ms(e) - ms(byId.get(Number(e.activityTaskStartedEventAttributes?.scheduledEventId)));
    } else if (e.eventType === T.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
      t.activityRunMs += ms(e) - ms(byId.get(Number(e.activityTaskCompletedEventAttributes?.startedEventId)));
      t.activities += 1;
    }
  }
  return t;
}

/** Field-wise mean of several runs' timings. */
export function meanTiming(timings: readonly HistoryTiming[]): HistoryTiming | undefined {
  if (timings.length === 0) return undefined;
  const keys = Object.keys(timings[0]!) as Array<keyof HistoryTiming>;
  return Object.fromEntries(
    keys.map((k) => [k, timings.reduce((s, t) => s + t[k], 0) / timings.length]),
  ) as unknown as HistoryTiming;
}
