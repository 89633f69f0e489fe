import type { LoadedDataConverter } from '@temporalio/common';
import { ToolHeartbeat } from '../../domain/tools/tool-progress';
import type { LiveToolProgress } from '../follow/push-follow';
import { firstDetail, type PendingActivities } from './live-replies';

/**
 * Reads running tool calls' progress from their keep-alive heartbeats (one `describe` a poll, no
 * server needed) and returns only updates not shown yet, for calls this watcher was shown. The
 * caller's view decides the rest (`AgentClient.follow`). One per watcher.
 */
export class LiveProgressReader {
  /** The last update shown, per `activityId#attempt`. */
  private readonly shown = new Map<string, number>();

  constructor(private readonly converter: LoadedDataConverter) {}

  async read(pendingActivities: PendingActivities): Promise<LiveToolProgress[]> {
    const updates: LiveToolProgress[] = [];
    for (const pending of pendingActivities) {
      if (pending.activityType?.name !== 'runTool' || !pending.activityId) continue;
      const beat = ToolHeartbeat.safeParse(await firstDetail(this.converter, pending.heartbeatDetails?.payloads));
      if (!beat.success) continue;
      const key = `${pending.activityId}#${pending.attempt ?? 1}`;
      const { progress, stepId, toolName } = beat.data;
      if (progress.seq <= (this.shown.get(key) ?? 0)) continue;
      this.shown.set(key, progress.seq);
      updates.push({
        stepId,
        toolName,
        seq: progress.seq,
        ...(progress.message !== undefined ? { message: progress.message } : {}),
        ...(progress.fraction !== undefined ? { fraction: progress.fraction } : {}),
      });
    }
    return updates;
  }
}
