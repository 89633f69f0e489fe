import type { Client } from '@temporalio/client';
import { latestMemoryExecution, readMemoryEntries, updateMemory } from '../activities/memory/agent-memory-execution';
import {
  ForgetMemoryRequest,
  MemoryKey,
  type ForgetMemoryResult,
  type MemoryEntry,
} from '../domain/planning/agent-memory';
import { forgetMemoryUpdate } from '../workflows/memory/agent-memory-messages';
import { sendUpdate } from './errors/update-refused-error';

/** Whose memory: an agent (its id, or the `agentName` of runs without one) and a tenant (absent: runs without one). */
export interface MemoryOwner {
  agent: string;
  /** The tenant of the runs' caller; absent for the memory of runs without a tenant, which is not tenant `default`'s. */
  tenant?: string;
}

/** What to forget: the entries with these ids, or every one. */
export type ForgetMemoryInit = MemoryOwner & ({ ids: string[]; all?: never } | { all: true; ids?: never });

/** The memory key of `owner`, checked (a ZodError names the bad field). */
export function memoryKey(owner: MemoryOwner): MemoryKey {
  return MemoryKey.parse(
    owner.tenant === undefined ? { agent: owner.agent } : { tenant: owner.tenant, agent: owner.agent },
  );
}

/** The agent's memory for the tenant, oldest first (what a run reads is the newest ten); none when nothing was kept. */
export function readAgentMemory(client: Client, owner: MemoryOwner): Promise<MemoryEntry[]> {
  return readMemoryEntries(client, memoryKey(owner));
}

/**
 * Forgets entries of the agent's memory for the tenant: an update to the open memory workflow, or,
 * when it has closed for idleness and holds any of them, update-with-start of a fresh one carrying
 * the rest. Forgetting from a memory that holds none of them sends nothing. Throws a ZodError for a
 * bad request, UpdateRefusedError when the memory workflow refuses it.
 */
export async function forgetAgentMemory(
  client: Client,
  init: ForgetMemoryInit,
  options: { taskQueue: string },
): Promise<ForgetMemoryResult> {
  const key = memoryKey(init);
  const request = ForgetMemoryRequest.parse(init.all === true ? { all: true } : { ids: init.ids });
  const latest = await latestMemoryExecution(client, key);
  if (!latest.open) {
    const entries = latest.state?.entries ?? [];
    const named = 'all' in request ? undefined : new Set(request.ids);
    if (!entries.some((e) => named === undefined || named.has(e.id))) return { forgotten: [], count: entries.length };
  }
  return sendUpdate(() => updateMemory(client, key, forgetMemoryUpdate, request, options));
}
