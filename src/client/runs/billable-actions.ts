import { temporal } from '@temporalio/proto';

const EventType = temporal.api.enums.v1.EventType;

/**
 * The Temporal Cloud actions one Temporal run's history shows, by kind. Counted from the events
 * (as Cloud's own estimate in its Web UI is), so what leaves no event is not here: queries, and
 * activity heartbeats (a streaming model call heartbeats about once a second).
 */
export interface BillableActions {
  /** The run's start: a client start, a continue-as-new or a child start (counted in the child). */
  starts: number;
  /** Activity attempts: each scheduled activity once, plus each retry. */
  activities: number;
  /** Workflow tasks that ran local activities: Cloud counts one action per such task. */
  localActivityTasks: number;
  /** Search attribute upserts (the run's own and TemporalChangeVersion alike). */
  upserts: number;
  timers: number;
  /** Child workflows this run started (each child's own start is counted in its history). */
  childStarts: number;
  /** Signals this run received, and signals it sent to other runs. */
  signals: number;
  /** Updates this run accepted (a rejected update never reaches the history). */
  updates: number;
  total: number;
}

/**
 * What the events of one Temporal run's `history` cost in Temporal Cloud actions. Pure: it reads
 * the history it is given. A child's start is counted once, in its parent's history, so the
 * counts of every history of a tree of runs add up to the tree's cost.
 */
export function billableActions(history: temporal.api.history.v1.IHistory): BillableActions {
  const count = {
    starts: 0,
    activities: 0,
    localActivityTasks: 0,
    upserts: 0,
    timers: 0,
    childStarts: 0,
    signals: 0,
    updates: 0,
  };
  const tasksWithLocalActivities = new Set<number>();
  let task = 0;
  for (const event of history.events ?? []) {
    switch (event.eventType) {
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
        // A child's first start is the parent's StartChildWorkflowExecutionInitiated: counted there.
        // A continue-as-new is a start of its own, a child's too.
        if (
          !event.workflowExecutionStartedEventAttributes?.parentWorkflowExecution ||
          event.workflowExecutionStartedEventAttributes.continuedExecutionRunId
        )
          count.starts += 1;
        break;
      case EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
        task += 1;
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
        // Written once, for the attempt that ended the activity: its number counts the retries before it.
        count.activities += Math.max(1, event.activityTaskStartedEventAttributes?.attempt ?? 1);
        break;
      case EventType.EVENT_TYPE_MARKER_RECORDED:
        if (event.markerRecordedEventAttributes?.markerName === 'core_local_activity')
          tasksWithLocalActivities.add(task);
        break;
      case EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
        count.upserts += 1;
        break;
      case EventType.EVENT_TYPE_TIMER_STARTED:
        count.timers += 1;
        break;
      case EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
        count.childStarts += 1;
        break;
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
      case EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED:
        count.signals += 1;
        break;
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
        count.updates += 1;
        break;
      default:
        break;
    }
  }
  count.localActivityTasks = tasksWithLocalActivities.size;
  const total = Object.values(count).reduce((sum, n) => sum + n, 0);
  return { ...count, total };
}
