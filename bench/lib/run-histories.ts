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
}

/** Every Temporal run of one agent run, oldest first: from the last run back through each continue-as-new. */
export async function runHistories(client: Client, workflowId: string, lastRunId: string): Promise<RunHistory[]> {
  const runs: RunHistory[] = [];
  for (let runId: string | undefined = lastRunId; runId; ) {
    // Sizes only: a long run's histories add up to hundreds of MB; nothing keeps them.
    const history: History = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    const largestEventBytes = Math.max(0, ...events.map((e) => temporal.api.history.v1.HistoryEvent.encode(e).finish().length));
    runs.unshift({ runId, bytes: temporal.api.history.v1.History.encode(history).finish().length, events: events.length, largestEventBytes });
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  return runs;
}
