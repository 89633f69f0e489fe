import {
  MAX_MEMORY_ENTRIES,
  type AgentMemoryState,
  type AgentMemoryView,
  type ForgetMemoryRequest,
  type ForgetMemoryResult,
  type MemoryEntry,
  type MemoryKey,
  type RememberLearningsRequest,
  type RememberLearningsResult,
} from '../../domain/planning/agent-memory';

/*
 * The transitions of an agent's memory. Pure: every function returns a new state and never reads
 * a clock or draws an id (`now`, workflow time in epoch ms, and `newId` are passed in), so replay
 * gives the same state.
 */

export function emptyMemoryState(key: MemoryKey): AgentMemoryState {
  return { schemaVersion: 1, ...tenantOf(key), agent: key.agent, entries: [] };
}

interface Step<R> {
  state: AgentMemoryState;
  result: R;
}

/**
 * Appends the learnings not held yet (the same text is one learning, whichever run or task
 * learnt it), then drops the oldest past MAX_MEMORY_ENTRIES, so the newest are kept.
 */
export function remember(
  state: AgentMemoryState,
  request: RememberLearningsRequest,
  newId: () => string,
  now: number,
): Step<RememberLearningsResult> {
  const held = new Set(state.entries.map((e) => e.text));
  const at = new Date(now).toISOString();
  const added: MemoryEntry[] = [];
  for (const learning of request.learnings) {
    if (held.has(learning.text)) continue;
    held.add(learning.text);
    added.push({
      id: newId(),
      text: learning.text,
      ...(learning.taskId !== undefined ? { taskId: learning.taskId } : {}),
      fromRun: request.runId,
      at,
    });
  }
  const all = [...state.entries, ...added];
  const dropped = Math.max(0, all.length - MAX_MEMORY_ENTRIES);
  const entries = all.slice(dropped);
  return {
    state: { ...state, entries, ...(added.length ? { lastChangedAt: now } : {}) },
    result: {
      added: added.filter((e) => entries.includes(e)),
      duplicates: request.learnings.length - added.length,
      dropped,
      count: entries.length,
      limit: MAX_MEMORY_ENTRIES,
    },
  };
}

/** Removes the entries named (ids the memory does not hold are ignored), or every one. */
export function forget(state: AgentMemoryState, request: ForgetMemoryRequest, now: number): Step<ForgetMemoryResult> {
  const named = 'all' in request ? undefined : new Set(request.ids);
  const gone = (e: MemoryEntry) => named === undefined || named.has(e.id);
  const forgotten = state.entries.filter(gone).map((e) => e.id);
  const entries = state.entries.filter((e) => !gone(e));
  return {
    state: { ...state, entries, ...(forgotten.length ? { lastChangedAt: now } : {}) },
    result: { forgotten, count: entries.length },
  };
}

export function memoryView(state: AgentMemoryState): AgentMemoryView {
  return { ...tenantOf(state), agent: state.agent, entries: state.entries };
}

/** `{ tenant }`, or nothing for runs without one (so the field is absent, not undefined, in what is recorded). */
const tenantOf = (owner: { tenant?: string | undefined }): { tenant?: string } =>
  owner.tenant !== undefined ? { tenant: owner.tenant } : {};

/** Milliseconds left before the memory closes for idleness: `idleMs` after the later of this execution's start and the last change. */
export function idleLeft(state: AgentMemoryState, startedAt: number, now: number, idleMs: number): number {
  return Math.max(startedAt, state.lastChangedAt ?? 0) + idleMs - now;
}

/** What starts an agent's memory workflow, and what it hands to its next execution. */
export interface AgentMemoryInput extends MemoryKey {
  /** Closes after this long without a change, returning the entries; default 30 days. */
  idleMs?: number;
  /** Updates taken before the workflow continues as new; default 500. */
  continueAsNewAfter?: number;
  /** The entries of the previous execution: continue-as-new, or a closed one read before reopening. */
  carried?: AgentMemoryState;
}
