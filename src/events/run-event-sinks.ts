import type { InjectedSinks } from '@temporalio/worker';
import type { ChainStatus } from '../shared';
import type { RunEvent } from '../shared/run-event';
import type { RunEventSinks } from '../workflows/core/run-event-sink';
import type { ModelDelta } from '../activities/model-activities';

/** Where run events go from a worker: an EventBus, or anything with `publish`. Must return at once. */
export interface RunEventPublisher {
  publish(event: RunEvent): void;
}

/** Runs whose last position a worker remembers for its text deltas; the oldest is forgotten first. */
const MAX_TRACKED_RUNS = 10_000;

export interface WorkerRunEvents {
  /** Register as the Worker's `sinks`. */
  sinks: InjectedSinks<RunEventSinks>;
  /** Give the model activities: each streamed delta becomes a `text_delta` event. */
  onModelDelta(delta: ModelDelta): void;
}

/**
 * The worker's side of run events: the workflow sink (never called for replayed history) and the
 * model activities' deltas, both handed to `publisher` without waiting. A publisher that throws
 * loses that event and nothing else: it never fails a workflow task or an activity.
 */
export function createWorkerRunEvents(publisher: RunEventPublisher | undefined): WorkerRunEvents {
  // A delta carries the run's last step and status as this worker last saw them (0/thinking if never).
  const positions = new Map<string, { chainStatus: ChainStatus; stepNumber: number }>();
  const send = (event: RunEvent): void => {
    try {
      publisher?.publish(event);
    } catch {
      // Best effort: the durable chain has every step, and a lost delta is only latency.
    }
  };
  const track = (event: RunEvent): void => {
    positions.delete(event.runId);
    if (event.type === 'end') return;
    positions.set(event.runId, { chainStatus: event.chainStatus, stepNumber: event.stepNumber });
    if (positions.size > MAX_TRACKED_RUNS) positions.delete(positions.keys().next().value!);
  };
  return {
    sinks: {
      runEvents: {
        publish: {
          fn(info, event) {
            // The run is the one Temporal ran the activation for, whatever the workflow wrote.
            const own = { ...event, runId: info.workflowId } as RunEvent;
            track(own);
            send(own);
          },
          callDuringReplay: false,
        },
      },
    },
    onModelDelta(delta) {
      const at = positions.get(delta.workflowId) ?? { chainStatus: 'thinking' as const, stepNumber: 0 };
      send({ type: 'text_delta', runId: delta.workflowId, ...at, activityId: delta.activityId, attempt: delta.attempt, kind: delta.kind, offset: delta.offset, text: delta.text });
    },
  };
}
