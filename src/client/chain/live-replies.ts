import type { Client } from '@temporalio/client';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { isLiveReply, unseenPart, type LiveReply } from '../../domain';

/** A piece of a model reply that a watcher has not been shown yet. */
export interface LiveDelta {
  /** The model call (activity) and attempt it belongs to; a retry starts a fresh reply. */
  activityId: string;
  attempt: number;
  kind: 'text' | 'thinking';
  text: string;
}

/**
 * Reads the replies streaming in a run's model calls, from their latest heartbeats (via
 * describe), and returns only what is new since the last read. One per watcher.
 */
export class LiveReplyReader {
  /** Characters shown so far, per `activityId#attempt#kind`. */
  private readonly shown = new Map<string, number>();

  constructor(
    private readonly client: Client,
    private readonly workflowId: string,
  ) {}

  async read(): Promise<LiveDelta[]> {
    const { raw } = await this.client.workflow.getHandle(this.workflowId).describe();
    const deltas: LiveDelta[] = [];
    for (const pending of raw.pendingActivities ?? []) {
      if (pending.activityType?.name !== 'callModel' || !pending.activityId) continue;
      const live = await this.decode(pending.heartbeatDetails?.payloads);
      if (!live) continue;
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

  private async decode(payloads: Parameters<typeof decodeArrayFromPayloads>[1]): Promise<LiveReply | undefined> {
    if (!payloads?.length) return undefined;
    const [first] = await decodeArrayFromPayloads(this.client.options.loadedDataConverter, payloads);
    return isLiveReply(first) ? first : undefined;
  }
}
