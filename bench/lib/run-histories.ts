import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;

/** The size of one Temporal run's history. */
export interface RunHistory {
  runId: string;
  bytes: number;
  events: number;
  /** The largest single event, a proxy for the largest payload (Temporal refuses payloads over 2 MB by default). */
  largestEventBytes: number;
  /**
   * The events that carry the chain rather than record an iteration: the one that closed this run
   * (its result, or the handover's input) and, for a continued run, its start (the same input).
   */
  carryingEventBytes: number;
  /**
   * What the iterations brought that is new: the payload bytes of every model reply and tool
   * result (`callModel` and `runTool` results). The target compares history with this.
   */
  addedBytes: number;
  /** Bytes by kind of event (activities by type, markers by name): where the history goes. */
  byKind: Record<string, number>;
}

const EventType = temporal.api.enums.v1.EventType;

/** An event's kind for `byKind`: its type, with the activity type or marker name where there is one. */
function kindOf(e: temporal.api.history.v1.IHistoryEvent, activityTypes: Map<string, string>): string {
  const type = (EventType[e.eventType ?? 0] ?? 'UNKNOWN').replace(/^EVENT_TYPE_/, '');
  const scheduled = e.activityTaskScheduledEventAttributes;
  if (scheduled) return `${type} ${scheduled.activityType?.name ?? ''}`;
  const done = e.activityTaskCompletedEventAttributes;
  if (done) return `${type} ${activityTypes.get(String(done.scheduledEventId)) ?? ''}`;
  const marker = e.markerRecordedEventAttributes;
  return marker ? `${type} ${marker.markerName ?? ''}` : type;
}

function bytesByKind(
  events: readonly temporal.api.history.v1.IHistoryEvent[],
  sizes: readonly number[],
): Record<string, number> {
  const activityTypes = new Map<string, string>();
  const byKind: Record<string, number> = {};
  events.forEach((e, i) => {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled) activityTypes.set(String(e.eventId), scheduled.activityType?.name ?? '');
    const kind = kindOf(e, activityTypes);
    byKind[kind] = (byKind[kind] ?? 0) + sizes[i]!;
  });
  return byKind;
}

/** Thoughtline's activities whose results are what an iteration adds: the model's replies and the tools' observations. */
export const ADDED_BY_THOUGHTLINE: readonly string[] = ['callModel', 'runTool'];

/** The payload bytes of the results of the `addedBy` activities in `events`. */
function addedBytesOf(events: readonly temporal.api.history.v1.IHistoryEvent[], addedBy: readonly string[]): number {
  const types = new Map<string, string>();
  let bytes = 0;
  for (const e of events) {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled) types.set(String(e.eventId), scheduled.activityType?.name ?? '');
    const done = e.activityTaskCompletedEventAttributes;
    const type = done ? types.get(String(done.scheduledEventId)) : undefined;
    if (type !== undefined && addedBy.includes(type))
      bytes += (done!.result?.payloads ?? []).reduce((sum, p) => sum + (p.data?.length ?? 0), 0);
  }
  return bytes;
}

/** Every Temporal run of one agent run, oldest first: from the last run back through each continue-as-new. */
export async function runHistories(
  client: Client,
  workflowId: string,
  lastRunId: string,
  addedBy = ADDED_BY_THOUGHTLINE,
): Promise<RunHistory[]> {
  const runs: RunHistory[] = [];
  for (let runId: string | undefined = lastRunId; runId;) {
    // Sizes only: a long run's histories add up to hundreds of MB; nothing keeps them.
    const history: History = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    const sizes = events.map((e) => temporal.api.history.v1.HistoryEvent.encode(e).finish().length);
    const continuedFrom = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
    const carryingEventBytes = (sizes.at(-1) ?? 0) + (continuedFrom ? (sizes[0] ?? 0) : 0);
    runs.unshift({
      runId,
      bytes: temporal.api.history.v1.History.encode(history).finish().length,
      events: events.length,
      largestEventBytes: Math.max(0, ...sizes),
      carryingEventBytes,
      addedBytes: addedBytesOf(events, addedBy),
      byKind: bytesByKind(events, sizes),
    });
    runId = continuedFrom;
  }
  return runs;
}
