import { z } from 'zod';
import { Learning, MAX_LEARNING_CHARS } from './plan-verdicts';

/**
 * Learnings kept across runs of one agent for one tenant (`planning.memory`): read by a later run
 * as a visible step, listed and deleted with `thoughtline memory`. Never shared across tenants:
 * the tenant comes from the run's authenticated caller. Bounded: the oldest go first.
 * Wire and state schemas of the agent's memory workflow, shared by it, its activities and the
 * client. Pure: no I/O, no regex, so the workflow bundle preloads it.
 */
export const MAX_MEMORY_ENTRIES = 100;
/** Entries a run reads into its prompt: the most relevant to its goal, else the newest. */
export const MAX_RECALLED_ENTRIES = 10;
/** Characters of a run's goal its memory is ranked against; the rest of a longer goal is not read. */
export const MAX_RECALL_QUERY_CHARS = 2_000;
/** Learnings one `rememberLearnings` update takes (a run's own are at most MAX_RUN_LEARNINGS, also 20). */
export const MAX_LEARNINGS_PER_UPDATE = 20;
/**
 * Longest tenant and agent name (UTF-16 code units) a memory key takes: both are spelt out in the
 * workflow id, which Temporal limits to 1,000 bytes; two of these are at most 600 bytes of UTF-8.
 */
export const MAX_MEMORY_KEY_CHARS = 100;
/** Ids one `forgetMemory` update names: as many as the memory holds. */
export const MAX_FORGET_IDS = MAX_MEMORY_ENTRIES;

export const MemoryEntry = Learning.extend({
  id: z.string().min(1).max(64),
  /** When it was remembered (the workflow's clock), ISO 8601. */
  at: z.string().max(40),
});
export type MemoryEntry = z.infer<typeof MemoryEntry>;

/** Whose memory: one tenant's view of one agent (its id, else its `agentName`); no `tenant` for runs without one. */
export const MemoryKey = z.strictObject({
  tenant: z.string().min(1).max(MAX_MEMORY_KEY_CHARS).optional(),
  agent: z.string().min(1).max(MAX_MEMORY_KEY_CHARS),
});
export type MemoryKey = z.infer<typeof MemoryKey>;

/** How memory ids spelt "no tenant" before tenants could be told from it; kept, so running memories keep their ids. */
const NO_TENANT_NAME = 'default';

/**
 * Workflow id of the memory of `agent` for `tenant` (undefined: runs without a tenant). A tenant is
 * length-prefixed, so the id reads back to exactly one (tenant, agent): `a-b` + `c` and `a` + `b-c`
 * never share memory. Runs without a tenant keep the id they always had (`7:default`); a tenant
 * named `default`, which shared it, is spelt `t7:default`, which no length prefix starts with.
 */
export function memoryWorkflowId(tenant: string | undefined, agent: string): string {
  const part =
    tenant === undefined
      ? `${NO_TENANT_NAME.length}:${NO_TENANT_NAME}`
      : `${tenant === NO_TENANT_NAME ? 't' : ''}${tenant.length}:${tenant}`;
  return `thoughtline-memory-${part}:${agent}`;
}

/** "tenant acme" or "runs without a tenant": whose memory, for a person. */
export function memoryOwnerText(tenant: string | undefined): string {
  return tenant === undefined ? 'runs without a tenant' : `tenant ${tenant}`;
}

/** What `rememberLearnings` takes: a run's own learnings (no `fromRun`: the run sending them is `runId`). */
export const RememberLearningsRequest = z.strictObject({
  /** The workflow id of the run that learnt them. */
  runId: z.string().min(1).max(256),
  learnings: z
    .array(
      z.strictObject({
        text: z.string().min(1).max(MAX_LEARNING_CHARS),
        taskId: z.string().max(64).optional(),
      }),
    )
    .min(1)
    .max(MAX_LEARNINGS_PER_UPDATE),
});
export type RememberLearningsRequest = z.infer<typeof RememberLearningsRequest>;

export interface RememberLearningsResult {
  /** The entries stored now, in the order given. */
  added: MemoryEntry[];
  /** Texts the memory held already (or given twice): not stored again. */
  duplicates: number;
  /** Oldest entries dropped to stay within the limit. */
  dropped: number;
  count: number;
  limit: number;
}

/** What `forgetMemory` takes: the entries named, or every one. */
export const ForgetMemoryRequest = z.union([
  z.strictObject({ ids: z.array(z.string().min(1).max(64)).min(1).max(MAX_FORGET_IDS) }),
  z.strictObject({ all: z.literal(true) }),
]);
export type ForgetMemoryRequest = z.infer<typeof ForgetMemoryRequest>;

export interface ForgetMemoryResult {
  /** Ids of the entries removed; a named id the memory did not hold is not among them. */
  forgotten: string[];
  count: number;
}

/**
 * One agent's memory for one tenant, carried through continue-as-new and into a fresh execution
 * after an idle close, and returned as that workflow's result. Oldest first.
 */
export const AgentMemoryState = z.object({
  schemaVersion: z.literal(1),
  /** Absent for runs without a tenant (a memory kept before that was told apart says `default`). */
  tenant: z.string().optional(),
  agent: z.string(),
  entries: z.array(MemoryEntry).max(MAX_MEMORY_ENTRIES),
  /** Workflow time (epoch ms) of the last change: a learning kept or an entry forgotten. */
  lastChangedAt: z.number().optional(),
});
export type AgentMemoryState = z.infer<typeof AgentMemoryState>;

/** The memory as its query answers: oldest first, newest last. */
export interface AgentMemoryView {
  tenant?: string | undefined;
  agent: string;
  entries: MemoryEntry[];
}

/** What a run asks of its memory (readAgentMemory's second argument): the learnings relevant to `query`, its goal. */
export interface MemoryRecallRequest {
  query: string;
}

/**
 * What a run recalls: at most MAX_RECALLED_ENTRIES entries, most relevant first. The first
 * `matched` share words with the goal; the rest are the newest of the others, newest first.
 */
export interface MemoryRecall {
  entries: MemoryEntry[];
  /** Entries the memory held, all of them ranked. */
  considered: number;
  matched: number;
}
