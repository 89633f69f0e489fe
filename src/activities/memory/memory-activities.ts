import { Context } from '@temporalio/activity';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  MAX_LEARNINGS_PER_UPDATE,
  MAX_RECALL_QUERY_CHARS,
  MAX_RECALLED_ENTRIES,
  type MemoryEntry,
  type MemoryKey,
  type MemoryRecall,
  type MemoryRecallRequest,
  type RememberLearningsRequest,
  type RememberLearningsResult,
} from '../../domain/planning/agent-memory';
import { rememberLearningsUpdate } from '../../workflows/memory/agent-memory-messages';
import { readMemoryEntries, updateMemory } from './agent-memory-execution';
import { rankLearnings } from './rank-learnings';

/** Failure type of learnings the memory workflow refused. */
export const MEMORY_REFUSED = 'MemoryRefused';

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
    /**
     * With `recall`: at most MAX_RECALLED_ENTRIES entries ranked by relevance to its query
     * (rank-learnings.ts). Without (workflow code from before ranking, still replaying or running):
     * the newest MAX_RECALLED_ENTRIES, newest last, as it always got. None when the memory was never started.
     */
    async readAgentMemory(key: MemoryKey, recall?: MemoryRecallRequest): Promise<MemoryEntry[] | MemoryRecall> {
      const entries = await readMemoryEntries(Context.current().client, key);
      if (recall === undefined) return entries.slice(-MAX_RECALLED_ENTRIES);
      // A query it cannot read ranks nothing: the newest, newest first.
      const query = typeof recall?.query === 'string' ? recall.query.slice(0, MAX_RECALL_QUERY_CHARS) : '';
      return rankLearnings(entries, query, MAX_RECALLED_ENTRIES);
    },

    /** Keeps a run's learnings: an update, or update-with-start when the memory is closed or new. */
    async keepAgentLearnings(input: KeepAgentLearningsInput): Promise<RememberLearningsResult> {
      const ctx = Context.current();
      try {
        return await updateMemory(
          ctx.client,
          { tenant: input.tenant, agent: input.agent },
          rememberLearningsUpdate,
          { runId: input.runId, learnings: input.learnings.slice(-MAX_LEARNINGS_PER_UPDATE) },
          { taskQueue: ctx.info.taskQueue },
        );
      } catch (err) {
        // The memory refused the learnings (its validator): the same request would be refused again.
        if (err instanceof WorkflowUpdateFailedError)
          throw ApplicationFailure.nonRetryable(err.cause?.message ?? err.message, MEMORY_REFUSED);
        throw err;
      }
    },
  };
}
