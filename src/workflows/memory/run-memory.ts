import { isCancellation } from '@temporalio/workflow';
import type { AgentInput, Learning } from '../../domain';
import {
  MAX_LEARNINGS_PER_UPDATE,
  MAX_MEMORY_KEY_CHARS,
  MAX_RECALL_QUERY_CHARS,
  type MemoryEntry,
  type MemoryKey,
  type MemoryRecall,
} from '../../domain/planning/agent-memory';
import { runTenant } from '../../domain/planning/run-tenant';
import { MAX_LEARNING_CHARS } from '../../domain/planning/plan-verdicts';
import { redactSecretsInText } from '../../domain/secrets/secret-patterns';
import { activities, memoryCallOptions } from '../activity-proxies';
import { cutText } from '../core/read-message';
import type { RunContext } from '../core/state/run-context';

/**
 * The run's side of memory (`planning.memory`, docs/memory.md): what earlier runs of this agent
 * and tenant learnt, read once as a visible `memory` step, and this run's learnings kept for later
 * runs when it ends. The tenant comes from the run's caller, so memory never crosses tenants.
 * Off (the default): nothing is read, kept or recorded, and no activity runs.
 */

const SHOWN = { level: 'full' } as const;
/** Characters of an activity's failure the `memory` step quotes. */
const MAX_FAILURE_CHARS = 300;

/**
 * Whose memory a run reads and keeps: its caller's tenant (none for a run without one: its own
 * memory, never that of a tenant called `default`) and its agent id (else its name).
 */
export function memoryKeyOf(input: AgentInput): MemoryKey | string {
  const tenant = runTenant(input);
  const agent = input.agent ?? input.agentName;
  if ((tenant?.length ?? 0) > MAX_MEMORY_KEY_CHARS || agent.length > MAX_MEMORY_KEY_CHARS || agent.length === 0)
    return `the tenant and the agent name must be 1–${MAX_MEMORY_KEY_CHARS} characters to key a memory`;
  return tenant === undefined ? { agent } : { tenant, agent };
}

/** Reads the agent's memory and records it as a `memory` step; the learnings to feed later prompts (none when off or empty). */
export async function recallMemory(ctx: RunContext): Promise<Learning[]> {
  if (!ctx.input.planning?.memory) return [];
  const key = memoryKeyOf(ctx.input);
  if (typeof key === 'string') {
    ctx.chain.note('memory', `Memory unavailable: ${key}; this run starts without earlier learnings.`, SHOWN);
    return [];
  }
  let read: MemoryEntry[] | MemoryRecall;
  try {
    // Ranked against the goal in the activity; the query is in history, so secrets go redacted.
    const query = cutText(redactSecretsInText(ctx.input.task), MAX_RECALL_QUERY_CHARS);
    read = await activities.readAgentMemory.executeWithOptions(memoryCallOptions('read agent memory'), [
      key,
      { query },
    ]);
  } catch (err) {
    if (isCancellation(err)) throw err;
    const why = failureText(err);
    ctx.chain.note(
      'memory',
      `Memory of agent ${key.agent} was unavailable (${why}); this run starts without earlier learnings.`,
      SHOWN,
    );
    return [];
  }
  // A worker from before ranking ignores the query and answers with the newest, oldest first.
  const entries = Array.isArray(read) ? read : read.entries;
  const learnings = entries.map((e): Learning => ({
    text: e.text,
    ...(e.taskId !== undefined ? { taskId: e.taskId } : {}),
    fromRun: e.fromRun ?? '',
    at: e.at,
  }));
  const note = Array.isArray(read)
    ? memoryNote(key.agent, learnings)
    : rankedMemoryNote(key.agent, learnings, read.considered, read.matched);
  ctx.chain.note('memory', note, SHOWN);
  return learnings;
}

/** "Memory: 2 learnings from earlier runs of agent support: 1. … (run agent-1)". Each text is bounded already. */
export function memoryNote(agent: string, learnings: readonly Learning[]): string {
  if (learnings.length === 0) return `Memory: no learnings yet from earlier runs of agent ${agent}.`;
  const runs = new Set(learnings.map((l) => l.fromRun)).size;
  const lines = learnings.map((l, i) => `${i + 1}. ${l.text}${l.fromRun ? ` (run ${l.fromRun})` : ''}`);
  const noun = learnings.length === 1 ? 'learning' : 'learnings';
  return `Memory: ${learnings.length} ${noun} from ${runs === 1 ? 'an earlier run' : `${runs} earlier runs`} of agent ${agent}:\n${lines.join('\n')}`;
}

/**
 * "Memory: 10 of 30 learnings from earlier runs of agent support, ranked by relevance to this task
 * (2 match it; the rest are the newest): 1. …": what was recalled, out of how many, and why in this order.
 */
export function rankedMemoryNote(
  agent: string,
  learnings: readonly Learning[],
  considered: number,
  matched: number,
): string {
  if (learnings.length === 0) return memoryNote(agent, learnings);
  const runs = new Set(learnings.map((l) => l.fromRun)).size;
  const lines = learnings.map((l, i) => `${i + 1}. ${l.text}${l.fromRun ? ` (run ${l.fromRun})` : ''}`);
  const order =
    matched === 0
      ? 'newest first, as none matches the words of this task'
      : `ranked by relevance to this task (${matched} ${matched === 1 ? 'matches' : 'match'} it${matched < learnings.length ? '; the rest are the newest' : ''})`;
  const noun = considered === 1 ? 'learning' : 'learnings';
  const from = runs === 1 ? 'an earlier run' : `${runs} earlier runs`;
  return `Memory: ${learnings.length} of ${considered} ${noun} from ${from} of agent ${agent}, ${order}:\n${lines.join('\n')}`;
}

/** Keeps this run's learnings in the agent's memory (no-op when memory is off or nothing was learnt). */
export async function keepLearnings(ctx: RunContext, learnings: readonly Learning[]): Promise<void> {
  if (!ctx.input.planning?.memory) return;
  // Only what this run learnt: those read from memory are there already.
  const own = learnings
    .filter((l) => l.fromRun === undefined)
    .slice(-MAX_LEARNINGS_PER_UPDATE)
    .map((l) => ({
      // Redaction may lengthen a short secret; the cut keeps the limit the memory's validator checks.
      text: cutText(redactSecretsInText(l.text), MAX_LEARNING_CHARS),
      ...(l.taskId !== undefined ? { taskId: l.taskId } : {}),
    }))
    .filter((l) => l.text.length > 0);
  if (own.length === 0) return;
  const key = memoryKeyOf(ctx.input);
  if (typeof key === 'string') {
    ctx.chain.note('memory', `This run's learnings were not kept: ${key}.`, SHOWN);
    return;
  }
  try {
    await activities.keepAgentLearnings.executeWithOptions(memoryCallOptions('keep agent learnings'), [
      { ...key, runId: ctx.workflowId, learnings: own },
    ]);
  } catch (err) {
    if (isCancellation(err)) throw err;
    const why = failureText(err);
    ctx.chain.note('memory', `This run's ${own.length} learnings were not kept in memory (${why}).`, SHOWN);
  }
}

/** What failed, bounded: an activity's own failure (its cause), else the error's message. */
function failureText(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  return cutText(cause instanceof Error ? cause.message : String(cause), MAX_FAILURE_CHARS);
}
