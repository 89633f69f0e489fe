import { Context } from '@temporalio/activity';
import {
  MAX_LEARNINGS_PER_UPDATE,
  MAX_RECALLED_ENTRIES,
  type MemoryEntry,
  type MemoryKey,
  type RememberLearningsRequest,
  type RememberLearningsResult,
} from '../../shared/planning/agent-memory';
import { rememberLearningsUpdate } from '../../workflows/memory/agent-memory-messages';
import { readMemoryEntries, updateMemory } from './agent-memory-execution';

export interface KeepAgentLearningsInput extends MemoryKey {
  /** The workflow id of the run that learnt them. */
  runId: string;
  learnings: RememberLearningsRequest['learnings'];
}

/**
 * The activities of `planning.memory`: a run reads its agent's memory once and keeps its own
 * learnings when it ends. Both reach the memory workflow through the activity's Temporal client,
 * on the run's own task queue. Retried by Temporal: reading is pure, and keeping de-duplicates
 * identical texts, so a retry stores nothing twice.
 */
export function createMemoryActivities() {
  return {
    /** The newest MAX_RECALLED_ENTRIES entries, newest last; none when the memory was never started. */
    async readAgentMemory(key: MemoryKey): Promise<MemoryEntry[]> {
      const entries = await readMemoryEntries(Context.current().client, key);
      return entries.slice(-MAX_RECALLED_ENTRIES);
    },

    /** Keeps a run's learnings: an update, or update-with-start when the memory is closed or new. */
    async keepAgentLearnings(input: KeepAgentLearningsInput): Promise<RememberLearningsResult> {
      const ctx = Context.current();
      return updateMemory(
        ctx.client,
        { tenant: input.tenant, agent: input.agent },
        rememberLearningsUpdate,
        { runId: input.runId, learnings: input.learnings.slice(-MAX_LEARNINGS_PER_UPDATE) },
        { taskQueue: ctx.info.taskQueue },
      );
    },
  };
}
