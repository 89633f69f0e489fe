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
}

/** Every Temporal run of one agent run, oldest first: from the last run back through each continue-as-new. */
export async function runHistories(client: Client, workflowId: string, lastRunId: string): Promise<RunHistory[]> {
  const runs: RunHistory[] = [];
  for (let runId: string | undefined = lastRunId; runId; ) {
    // Sizes only: a long run's histories add up to hundreds of MB; nothing keeps them.
    const history: History = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    const sizes = events.map((e) => temporal.api.history.v1.HistoryEvent.encode(e).finish().length);
    const continuedFrom = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
    const carryingEventBytes = (sizes.at(-1) ?? 0) + (continuedFrom ? (sizes[0] ?? 0) : 0);
    runs.unshift({ runId, bytes: temporal.api.history.v1.History.encode(history).finish().length, events: events.length, largestEventBytes: Math.max(0, ...sizes), carryingEventBytes });
    runId = continuedFrom;
  }
  return runs;
}
