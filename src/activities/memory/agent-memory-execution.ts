import {
  WithStartWorkflowOperation,
  WorkflowNotFoundError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import {
  memoryOwnerText,
  memoryWorkflowId,
  type AgentMemoryState,
  type MemoryEntry,
  type MemoryKey,
} from '../../domain/planning/agent-memory';
import type { UpdateDefinition } from '@temporalio/common';
import { AGENT_MEMORY_WORKFLOW, agentMemoryQuery } from '../../workflows/memory/agent-memory-messages';
import type { AgentMemoryInput } from '../../workflows/memory/agent-memory-state';
import type { agentMemoryWorkflow } from '../../workflows/memory/agent-memory-workflow';

/*
 * How the worker's activities and the client reach an agent's memory workflow, open or closed.
 * Node side (a Temporal client); used by readAgentMemory / keepAgentLearnings and AgentClient.
 */

/** The latest execution of a memory: open (its run id), closed (its entries), or none yet. */
export type MemoryExecution = { open: true; runId: string } | { open: false; state?: AgentMemoryState };

const handleOf = (client: Client, key: MemoryKey, runId?: string): WorkflowHandle<typeof agentMemoryWorkflow> =>
  client.workflow.getHandle<typeof agentMemoryWorkflow>(memoryWorkflowId(key.tenant, key.agent), runId);

export async function latestMemoryExecution(client: Client, key: MemoryKey): Promise<MemoryExecution> {
  let described;
  try {
    described = await handleOf(client, key).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { open: false };
    throw err;
  }
  if (described.status.name === 'RUNNING') return { open: true, runId: described.runId };
  const scoped = handleOf(client, key, described.runId);
  // Completed: its result, read from history. Terminated or failed: a query, which a worker answers by replay.
  if (described.status.name === 'COMPLETED') return { open: false, state: await scoped.result() };
  const view = await scoped.query(agentMemoryQuery);
  return { open: false, state: { schemaVersion: 1, ...view } };
}

/** The memory's entries, oldest first; none when nothing was ever kept. */
export async function readMemoryEntries(client: Client, key: MemoryKey): Promise<MemoryEntry[]> {
  const latest = await latestMemoryExecution(client, key);
  if (!latest.open) return latest.state?.entries ?? [];
  // A query to an execution that closes meanwhile is still answered (by replay).
  return (await handleOf(client, key, latest.runId).query(agentMemoryQuery)).entries;
}

export interface MemoryUpdateOptions {
  /** The task queue of the agent's workers, which run the memory workflow too. */
  taskQueue: string;
  /** Passed to an execution this call starts; default 30 days. */
  idleMs?: number;
}

/** Times the memory may close between reading it and sending the update (an idle close landing in between). */
const ATTEMPTS = 3;

/**
 * Sends `update` (rememberLearnings or forgetMemory) to the memory: to the open execution, else update-with-start of a fresh one
 * whose input carries the entries of the closed one (2 actions: start and update, plus its idle
 * timer). A WorkflowUpdateFailedError (the validator refused) propagates.
 */
export async function updateMemory<Ret, Arg>(
  client: Client,
  key: MemoryKey,
  update: UpdateDefinition<Ret, [Arg]>,
  arg: Arg,
  options: MemoryUpdateOptions,
): Promise<Ret> {
  const workflowId = memoryWorkflowId(key.tenant, key.agent);
  for (let attempt = 1; ; attempt++) {
    const latest = await latestMemoryExecution(client, key);
    try {
      if (latest.open) return await handleOf(client, key, latest.runId).executeUpdate(update, { args: [arg] });
      const input: AgentMemoryInput = {
        ...(key.tenant !== undefined ? { tenant: key.tenant } : {}),
        agent: key.agent,
        ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
        ...(latest.state ? { carried: latest.state } : {}),
      };
      const start = new WithStartWorkflowOperation<typeof agentMemoryWorkflow>(AGENT_MEMORY_WORKFLOW, {
        workflowId,
        taskQueue: options.taskQueue,
        args: [input],
        // Another caller may have started it since: its input carried the same closed entries.
        workflowIdConflictPolicy: 'USE_EXISTING',
        // It outlives the worker version that started it, so it follows the current one.
        versioningOverride: 'AUTO_UPGRADE',
        staticSummary: `Memory of agent ${key.agent} for ${memoryOwnerText(key.tenant)}`.slice(0, 200),
      });
      return await client.workflow.executeUpdateWithStart(update, { args: [arg], startWorkflowOperation: start });
    } catch (err) {
      // The open execution closed (idle) after it was read: read again, and carry its entries.
      if (err instanceof WorkflowNotFoundError && attempt < ATTEMPTS) continue;
      throw err;
    }
  }
}
