import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { z } from 'zod';
import { FailureType } from '../../domain/run/failure-types';
import {
  AgentMemoryState,
  ForgetMemoryRequest,
  MAX_FORGET_IDS,
  MAX_LEARNINGS_PER_UPDATE,
  MAX_MEMORY_KEY_CHARS,
  MemoryKey,
  RememberLearningsRequest,
} from '../../domain/planning/agent-memory';
import { MAX_LEARNING_CHARS } from '../../domain/planning/plan-verdicts';
import { readMessage } from '../core/read-message';
import { agentMemoryQuery, forgetMemoryUpdate, rememberLearningsUpdate } from './agent-memory-messages';
import { emptyMemoryState, forget, idleLeft, memoryView, remember, type AgentMemoryInput } from './agent-memory-state';

/** Without a change for this long, the memory workflow completes, returning its entries; the next learning starts it again. */
export const DEFAULT_MEMORY_IDLE_MS = 30 * 24 * 3_600_000;
/** Updates taken before continuing as new (well under Temporal's 2,000 updates per execution). */
export const DEFAULT_MEMORY_CONTINUE_AS_NEW_AFTER = 500;
/** Failure type of a start input (key or carried state) that does not parse. */
export const INVALID_AGENT_MEMORY_STATE = 'InvalidAgentMemoryState';

const REMEMBER_SHAPE = `Malformed learnings: rememberLearnings takes { runId (1–256 characters), learnings: 1–${MAX_LEARNINGS_PER_UPDATE} of { text (1–${MAX_LEARNING_CHARS} characters), taskId? } } and nothing else.`;
const FORGET_SHAPE = `Malformed forget request: forgetMemory takes { ids: 1–${MAX_FORGET_IDS} entry ids } or { all: true }.`;

/**
 * One per tenant and agent (id from `memoryWorkflowId`): the learnings of the agent's runs for
 * that tenant, which outlive every run. Started by the first learning kept (update-with-start);
 * completes after `idleMs` without a change, returning its entries, so it never lives for ever.
 *
 * Temporal actions (Temporal Cloud bills these): the first learnings of an execution cost 3
 * (workflow start, update, the idle timer); later ones to an open execution 1 (the update); a
 * forget 1. The idle timer is re-armed only when it fires, so changes in between add none. Reads:
 * a query (1) while open; none once closed (the entries are read from the result in history).
 */
export async function agentMemoryWorkflow(input: AgentMemoryInput): Promise<AgentMemoryState> {
  const idleMs = input.idleMs ?? DEFAULT_MEMORY_IDLE_MS;
  const handOverAfter = input.continueAsNewAfter ?? DEFAULT_MEMORY_CONTINUE_AS_NEW_AFTER;
  const startedAt = Date.now();
  let state = initialState(input);
  let handled = 0;

  const apply = <R>(step: { state: AgentMemoryState; result: R }): R => {
    handled++;
    state = step.state;
    return step.result;
  };
  // The validators refuse what does not parse (a refused update never reaches history). A handler
  // only ever sees what its validator took (replay runs the handler alone, on accepted payloads),
  // so it reads again for the types and treats the impossible unreadable payload as empty: it never throws.
  setHandler(
    rememberLearningsUpdate,
    (raw) => apply(remember(state, readMessage(RememberLearningsRequest, raw) ?? nothingLearnt(), uuid4, Date.now())),
    { validator: (raw) => void refuseUnreadable(RememberLearningsRequest, raw, REMEMBER_SHAPE) },
  );
  setHandler(
    forgetMemoryUpdate,
    (raw) => apply(forget(state, readMessage(ForgetMemoryRequest, raw) ?? nothingNamed(), Date.now())),
    { validator: (raw) => void refuseUnreadable(ForgetMemoryRequest, raw, FORGET_SHAPE) },
  );
  setHandler(agentMemoryQuery, () => memoryView(state));

  const handOver = () => handled >= handOverAfter || workflowInfo().continueAsNewSuggested;
  for (;;) {
    // Handlers are synchronous; waiting for them keeps the next command's order the same on replay.
    await condition(allHandlersFinished);
    if (handOver()) return continueAsNew<typeof agentMemoryWorkflow>({ ...input, carried: state });
    const left = idleLeft(state, startedAt, Date.now(), idleMs);
    if (left <= 0) return state;
    // Changes do not wake this wait: the timer runs its course, then the loop measures again.
    await condition(() => handOver() && allHandlersFinished(), left);
  }
}

/** What a handler applies for a payload it cannot read (never reached: the validator refused it first). */
const nothingLearnt = (): RememberLearningsRequest => ({ runId: 'unreadable', learnings: [] });
const nothingNamed = (): ForgetMemoryRequest => ({ ids: [] });

/** Refuses (in a validator: only this update) a payload that does not parse. */
function refuseUnreadable<T>(schema: z.ZodType<T>, raw: unknown, shape: string): void {
  if (readMessage(schema, raw) === undefined)
    throw ApplicationFailure.nonRetryable(shape, FailureType.MalformedMessage);
}

function initialState(input: AgentMemoryInput): AgentMemoryState {
  const key = readMessage(MemoryKey, { tenant: input.tenant, agent: input.agent });
  if (key === undefined)
    throw ApplicationFailure.nonRetryable(
      `An agent memory needs an agent, and a tenant when it has one, of 1–${MAX_MEMORY_KEY_CHARS} characters each.`,
      INVALID_AGENT_MEMORY_STATE,
    );
  if (input.carried === undefined) return emptyMemoryState(key);
  const parsed = AgentMemoryState.safeParse(input.carried);
  if (parsed.success) return parsed.data;
  throw ApplicationFailure.nonRetryable(
    `Carried agent memory does not parse: ${parsed.error.message}`,
    INVALID_AGENT_MEMORY_STATE,
  );
}
