import type { InjectedSinks } from '@temporalio/worker';
import type { ChainStatus } from '../domain';
import type { RunEvent } from '../domain/run/run-event';
import type { RunEventSinks } from '../workflows/core/chain/run-event-sink';
import type { ModelDelta } from '../activities/model-activities';
import type { ToolProgressEvent } from '../activities/tool-activities';

/** Where run events go from a worker: an EventBus, or anything with `publish`. Must return at once. */
export interface RunEventPublisher {
  publish(event: RunEvent): void;
}

/** Runs whose last position a worker remembers for its text deltas; the oldest is forgotten first. */
const MAX_TRACKED_RUNS = 10_000;

/** Events waiting for the next turn of the event loop; more are dropped (counted). */
const MAX_WAITING_EVENTS = 10_000;

export interface WorkerRunEvents {
  /** Register as the Worker's `sinks`. */
  sinks: InjectedSinks<RunEventSinks>;
  /** Give the model activities: each streamed delta becomes a `text_delta` event. */
  onModelDelta(delta: ModelDelta): void;
  /** Give the tool activities: each published `ctx.progress(...)` becomes a `tool_progress` event. */
  onToolProgress(progress: ToolProgressEvent): void;
  /** Events dropped because the publisher fell more than 10,000 behind or threw. */
  dropped(): number;
}

/**
 * The worker's side of run events: the workflow sink (never called for replayed history) and the
 * model activities' deltas. Events are handed to `publisher` in order on the next turn of the
 * event loop, never inline: the worker sends a workflow task's completion only after its sink
 * calls return, and a stream reads its next piece only after the delta hook returns, so a slow
 * publisher (a memory bus feeding many watchers) must not sit in either path. A publisher that
 * throws loses that event and nothing else: it never fails a workflow task or an activity.
 */
export function createWorkerRunEvents(publisher: RunEventPublisher | undefined): WorkerRunEvents {
  // A delta carries the run's last step and status as this worker last saw them (0/thinking if never).
  const positions = new Map<string, { chainStatus: ChainStatus; stepNumber: number }>();
  let waiting: RunEvent[] = [];
  let dropped = 0;
  const drain = (): void => {
    const batch = waiting;
    waiting = [];
    for (const event of batch) {
      try {
        publisher!.publish(event);
      } catch {
        // Best effort: the durable chain has every step, and a lost delta is only latency.
        dropped += 1;
      }
    }
  };
  const send = (event: RunEvent): void => {
    if (!publisher) return;
    if (waiting.length >= MAX_WAITING_EVENTS) {
      dropped += 1;
      return;
    }
    waiting.push(event);
    if (waiting.length === 1) setImmediate(drain);
  };
  const track = (event: RunEvent): void => {
    positions.delete(event.runId);
    if (event.type === 'end') return;
    positions.set(event.runId, { chainStatus: event.chainStatus, stepNumber: event.stepNumber });
    if (positions.size > MAX_TRACKED_RUNS) positions.delete(positions.keys().next().value!);
  };
  // The run is the one Temporal ran the activation for, whatever the workflow wrote.
  const receive = (workflowId: string, event: RunEvent): void => {
    const own = { ...event, runId: workflowId } as RunEvent;
    track(own);
    send(own);
  };
  return {
    sinks: {
      runEvents: {
        publishAll: {
          fn(info, events) {
            // A sink's argument is the workflow's to shape: anything but a list is dropped, not thrown.
            if (Array.isArray(events)) for (const event of events) receive(info.workflowId, event);
          },
          callDuringReplay: false,
        },
        publish: {
          fn: (info, event) => receive(info.workflowId, event),
          callDuringReplay: false,
        },
      },
    },
    onModelDelta(delta) {
      const at = positions.get(delta.workflowId) ?? { chainStatus: 'thinking' as const, stepNumber: 0 };
      send({
        type: 'text_delta',
        runId: delta.workflowId,
        ...at,
        activityId: delta.activityId,
        attempt: delta.attempt,
        kind: delta.kind,
        offset: delta.offset,
        text: delta.text,
      });
    },
    onToolProgress(progress) {
      const at = positions.get(progress.workflowId) ?? { chainStatus: 'tool_calling' as const, stepNumber: 0 };
      const { workflowId, callStepId, activityId, attempt, toolName, seq, message, fraction, data } = progress;
      send({
        type: 'tool_progress',
        runId: workflowId,
        ...at,
        activityId,
        attempt,
        stepId: callStepId,
        toolName,
        seq,
        ...(message === undefined ? {} : { message }),
        ...(fraction === undefined ? {} : { fraction }),
        ...(data === undefined ? {} : { data }),
      });
    },
    dropped: () => dropped,
  };
}
