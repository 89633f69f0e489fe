import {
  allHandlersFinished,
  ApplicationFailure,
  ChildWorkflowCancellationType,
  condition,
  continueAsNew,
  isCancellation,
  ParentClosePolicy,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { AgentResult } from '../../domain';
import { FailureType } from '../../domain/run/failure-types';
import {
  AgentAttribute,
  CallerAttribute,
  RUNNING_STATUS,
  StatusAttribute,
  TenantAttribute,
} from '../../domain/run/search-attributes';
import {
  MAX_THREAD_ID_CHARS,
  MAX_TURN_ID_CHARS,
  ThreadStart,
  ThreadState,
  ThreadTurnRequest,
  type ThreadStartInit,
  type ThreadTurnReceipt,
  type ThreadTurnRecord,
} from '../../domain/threads/thread-schemas';
import { failureMessage } from '../core/failure-message';
import { cutText, readMessage } from '../core/read-message';
import { threadQuery, threadTurnUpdate } from './thread-messages';
import {
  dropTurn,
  emptyThreadState,
  endedTurn,
  idleLeft,
  runningTurn,
  settleTurn,
  takeTurn,
  threadView,
  turnOf,
  turnRefusal,
  turnRunId,
} from './thread-state';
import { turnRunInput } from './thread-turn-input';

/** Without a turn for this long, the thread completes, returning its transcript; the next turn starts it afresh. */
export const DEFAULT_THREAD_IDLE_MS = 7 * 24 * 3_600_000;
/** Turns taken before continuing as new (each turn adds its update and its child's events to history). */
export const DEFAULT_THREAD_CONTINUE_AS_NEW_AFTER = 100;
/** Failure type of a start input (or carried state) that does not parse. */
export const INVALID_THREAD_START = 'InvalidThreadStart';
/** Failure type of a turn the thread refused (another caller's, or one while a turn runs). */
export const THREAD_TURN_REFUSED = 'ThreadTurnRefused';
/** Failure type of a turn whose run could not start. */
export const THREAD_TURN_NOT_STARTED = 'ThreadTurnNotStarted';

const TURN_SHAPE = `Malformed turn: threadTurn takes { turnId (1–${MAX_TURN_ID_CHARS} characters), text (1 character to 256 KiB), by: { id, roles, tenant? } }.`;

/**
 * One durable conversation (id from `threadWorkflowId`): each `threadTurn` update starts one
 * `agentWorkflow` child for the turn, with the earlier turns as context, and returns once it has
 * started; the thread records each run's answer when it ends. One turn runs at a time; the same
 * turn id again returns its receipt and starts nothing. Turns are children abandoned on close, so
 * a turn outlives its thread (cancelled, continued or idle).
 *
 * Continues as new (carrying the bounded transcript) after `continueAsNewAfter` turns or when
 * Temporal suggests it, only while no turn runs. Completes after `idleMs` without a turn,
 * returning its state; a later turn starts it afresh from that state (sendThreadTurn).
 *
 * Temporal actions: a turn costs its update, its child's start and one idle timer (armed when the
 * turn ends); the first turn of an execution also the workflow start.
 */
export async function threadWorkflow(input: ThreadStartInit): Promise<ThreadState> {
  const start = readStart(input);
  const self = workflowInfo().workflowId;
  const idleMs = start.idleMs ?? DEFAULT_THREAD_IDLE_MS;
  const handOverAfter = start.continueAsNewAfter ?? DEFAULT_THREAD_CONTINUE_AS_NEW_AFTER;
  const startedAt = Date.now();
  let state = initialState(start);
  let taken = 0;
  /** Turns whose child start has not been confirmed yet. */
  const starting = new Set<number>();

  const follow = async (turn: number, result: Promise<unknown>): Promise<void> => {
    try {
      state = settleTurn(state, turn, endedTurn((await result) as AgentResult), Date.now());
    } catch (err) {
      const status = isCancellation(err) ? 'cancelled' : 'failed';
      state = settleTurn(
        state,
        turn,
        { status, answer: `The run ended ${status}: ${failureMessage(err)}` },
        Date.now(),
      );
    }
  };

  const newTurn = async (request: ThreadTurnRequest): Promise<ThreadTurnReceipt> => {
    const earlier = state.turns;
    const next = takeTurn(state, request, (n) => turnRunId(self, n), Date.now());
    const { turn, runId } = next.record;
    state = next.state;
    taken++;
    starting.add(turn);
    try {
      const child = await startChild('agentWorkflow', childOptions(start, next.record, request, earlier));
      void follow(turn, child.result());
      return { turn, runId, repeated: false };
    } catch (err) {
      state = dropTurn(state, turn);
      throw ApplicationFailure.nonRetryable(
        `The turn's run ${runId} did not start: ${failureMessage(err)}`,
        THREAD_TURN_NOT_STARTED,
      );
    } finally {
      starting.delete(turn);
    }
  };

  const repeatedTurn = async (known: ThreadTurnRecord): Promise<ThreadTurnReceipt> => {
    await condition(() => !starting.has(known.turn));
    if (!turnOf(state, known.turnId))
      throw ApplicationFailure.nonRetryable(`The turn's run ${known.runId} did not start.`, THREAD_TURN_NOT_STARTED);
    return { turn: known.turn, runId: known.runId, repeated: true };
  };

  // The validator refuses what does not parse or may not be taken (a refused update never reaches
  // history). The handler only sees what it took, and reads again for the types.
  setHandler(
    threadTurnUpdate,
    async (raw) => {
      const request = readMessage(ThreadTurnRequest, raw);
      if (request === undefined) throw ApplicationFailure.nonRetryable(TURN_SHAPE, FailureType.MalformedMessage);
      const known = turnOf(state, request.turnId);
      return known ? repeatedTurn(known) : newTurn(request);
    },
    {
      validator: (raw) => {
        const request = readMessage(ThreadTurnRequest, raw);
        if (request === undefined) throw ApplicationFailure.nonRetryable(TURN_SHAPE, FailureType.MalformedMessage);
        const why = turnRefusal(state, start.owner, request);
        if (why !== undefined) throw ApplicationFailure.nonRetryable(why, THREAD_TURN_REFUSED);
      },
    },
  );
  setHandler(threadQuery, () => threadView(state));

  const quiet = () => starting.size === 0 && runningTurn(state) === undefined;
  const handOver = () => quiet() && (taken >= handOverAfter || workflowInfo().continueAsNewSuggested);
  for (;;) {
    await condition(allHandlersFinished);
    if (handOver()) return continueAsNew<typeof threadWorkflow>({ ...start, carried: state });
    const wasQuiet = quiet();
    const left = idleLeft(state, startedAt, Date.now(), idleMs);
    if (wasQuiet && left <= 0) return state;
    // Wakes when a turn starts or ends (the idle clock restarts then) or a handover is due; the
    // idle timer runs only while no turn runs.
    await condition(() => quiet() !== wasQuiet || (handOver() && allHandlersFinished()), wasQuiet ? left : undefined);
  }
}

/** The options of a turn's run: its own id, the owner's search attributes (run lists, tenants), abandoned on close. */
function childOptions(
  start: ThreadStart,
  record: ThreadTurnRecord,
  request: ThreadTurnRequest,
  earlier: readonly ThreadTurnRecord[],
) {
  const input = turnRunInput(start, request, earlier);
  const summary = cutText(request.text, 200);
  return {
    workflowId: record.runId,
    args: [input],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    cancellationType: ChildWorkflowCancellationType.ABANDON,
    // A closed run of an earlier execution with this id is never replaced: the turn fails instead.
    workflowIdReusePolicy: 'REJECT_DUPLICATE' as const,
    staticSummary: summary,
    staticDetails: `Turn ${record.turn} of thread ${cutText(start.threadId, MAX_THREAD_ID_CHARS)}`,
    memo: { task: summary },
    typedSearchAttributes: [
      { key: StatusAttribute, value: RUNNING_STATUS },
      { key: AgentAttribute, value: input.agentName ?? 'agent' },
      ...(start.owner.tenant ? [{ key: TenantAttribute, value: start.owner.tenant }] : []),
      { key: CallerAttribute, value: start.owner.id },
    ],
  };
}

function readStart(input: ThreadStartInit): ThreadStart {
  const parsed = readMessage(ThreadStart, input);
  if (parsed === undefined)
    throw ApplicationFailure.nonRetryable(
      'A thread needs { threadId, owner: { id, roles, tenant? }, agent: { agent } or { agentName }, allowQuestions? }.',
      INVALID_THREAD_START,
    );
  return parsed;
}

function initialState(start: ThreadStart): ThreadState {
  if (start.carried === undefined) return emptyThreadState(start.threadId);
  const parsed = readMessage(ThreadState, start.carried);
  if (parsed !== undefined) return parsed;
  throw ApplicationFailure.nonRetryable('The carried thread state does not parse.', INVALID_THREAD_START);
}
