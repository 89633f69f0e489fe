import { proxySinks, type Sinks } from '@temporalio/workflow';
import type { RunEvent } from '../../../domain/run/run-event';
import type { AtRest } from '../state/at-rest';
import { createRunEventObserver, type RunEventObserver } from './run-event-observer';

/**
 * The workflow's way out for run events: a Temporal sink. Sink calls are not commands and not
 * history events; the worker runs them after each activation, and (callDuringReplay false) never
 * for history it replays, so an evicted or restarted run publishes no step twice.
 */
export interface RunEventSinks extends Sinks {
  runEvents: {
    /** A workflow task's events, in order. `runId` is overwritten by the worker with the workflow id it ran the activation for. */
    publishAll(events: RunEvent[]): void;
    /** One event: what bundles built before publishAll call; the worker still takes it. */
    publish(event: RunEvent): void;
  };
}

const sinks = proxySinks<RunEventSinks>();

/** Never throws into workflow code: a sink call only queues, but cloning an odd value could. */
function send(events: RunEvent[]): void {
  try {
    sinks.runEvents.publishAll(events);
  } catch {
    // An event is best effort; the durable chain has it.
  }
}

/** The run's observer, publishing through the sink; steps wait until the task's code settles (see createRunEventObserver). */
export function runEventSink(workflowId: string, atRest: AtRest): RunEventObserver {
  return createRunEventObserver(workflowId, send, (flush) => atRest.once(flush));
}
