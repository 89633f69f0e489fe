import type { AgentClient } from '../../client/agent-client';
import { isRunGone } from '../../client/errors/run-gone';
import type { ChainStore } from '../../store/chain-store';

/**
 * Marks temporalGone every stored run that ended before `endedBefore` and whose history Temporal
 * no longer has (its namespace's retention passed, or it was deleted): the store is then its only
 * copy, and readers say so. One describe per such run (a read, no action); returns how many it marked.
 */
export async function markGoneRuns(store: ChainStore, agents: AgentClient, endedBefore: string): Promise<number> {
  let marked = 0;
  let after: string | undefined;
  for (;;) {
    const page = await store.runIds({ limit: 500, ...(after ? { afterRunId: after } : {}) });
    for (const runId of page) {
      const run = await store.run(runId);
      if (!run || run.temporalGone || !run.endedAt || run.endedAt >= endedBefore) continue;
      try {
        await agents.getHandle(runId).describe();
      } catch (err) {
        if (!isRunGone(err)) throw err;
        await store.markTemporalGone(runId);
        marked += 1;
      }
    }
    if (page.length < 500) return marked;
    after = page.at(-1);
  }
}

/** How long the client's namespace keeps closed runs (its retention), in ms; undefined when it does not say. */
export async function namespaceRetentionMs(agents: AgentClient): Promise<number | undefined> {
  const { workflowService } = agents.client.connection;
  const described = await workflowService.describeNamespace({ namespace: agents.client.options.namespace });
  const ttl = described.config?.workflowExecutionRetentionTtl;
  if (!ttl?.seconds) return undefined;
  return Number(ttl.seconds) * 1_000;
}
