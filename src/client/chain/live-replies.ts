import type { WorkflowExecutionDescription } from '@temporalio/client';
import type { LoadedDataConverter } from '@temporalio/common';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { isLiveReply, unseenPart } from '../../domain';

/** A piece of a model reply that a watcher has not been shown yet. */
export interface LiveDelta {
  /** The model call (activity) and attempt it belongs to; a retry starts a fresh reply. */
  activityId: string;
  attempt: number;
  kind: 'text' | 'thinking';
  text: string;
}

/** A run's pending activities, as one `describe` gives them: both live readers share a poll's read. */
export type PendingActivities = NonNullable<WorkflowExecutionDescription['raw']['pendingActivities']>;

/**
 * Reads the replies streaming in a run's model calls, from their latest heartbeats (via
 * describe), and returns only what is new since the last read. One per watcher.
 */
export class LiveReplyReader {
  /** Characters shown so far, per `activityId#attempt#kind`. */
  private readonly shown = new Map<string, number>();

  constructor(private readonly converter: LoadedDataConverter) {}

  async read(pendingActivities: PendingActivities): Promise<LiveDelta[]> {
    const deltas: LiveDelta[] = [];
    for (const pending of pendingActivities) {
      if (pending.activityType?.name !== 'callModel' || !pending.activityId) continue;
      const live = await firstDetail(this.converter, pending.heartbeatDetails?.payloads);
      if (!isLiveReply(live)) continue;
      const attempt = pending.attempt ?? 1;
      for (const kind of ['thinking', 'text'] as const) {
        const key = `${pending.activityId}#${attempt}#${kind}`;
        const tail = live[kind];
        const text = unseenPart(tail, this.shown.get(key) ?? 0);
        this.shown.set(key, tail.offset + tail.tail.length);
        if (text) deltas.push({ activityId: pending.activityId, attempt, kind, text });
      }
    }
    return deltas;
  }
}

/** A pending activity's first heartbeat detail, decoded; undefined when it has none. */
export async function firstDetail(
  converter: LoadedDataConverter,
  payloads: Parameters<typeof decodeArrayFromPayloads>[1],
): Promise<unknown> {
  if (!payloads?.length) return undefined;
  const [first] = await decodeArrayFromPayloads(converter, payloads);
  return first;
}
