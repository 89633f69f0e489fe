import { cutText } from '../core/read-message';
import type { AgentResult } from '../../domain';
import { viewResult } from '../../domain/chain/chain-view';
import type { CallerContext } from '../../domain/identity/people';
import {
  MAX_THREAD_TEXT_CHARS,
  MAX_THREAD_TURNS_KEPT,
  type ThreadState,
  type ThreadTurnRecord,
  type ThreadTurnRequest,
  type ThreadTurnStatus,
  type ThreadView,
} from '../../domain/threads/thread-schemas';

/*
 * The transitions of a thread. Pure: every function returns a new state and never reads a clock
 * (`now`, workflow time in epoch ms, is passed in), so replay gives the same state.
 */

export function emptyThreadState(threadId: string): ThreadState {
  return { schemaVersion: 1, threadId, turns: [], totalTurns: 0 };
}

/** The workflow id of turn `turn`'s agent run: one per turn, so a retried turn never starts a second run. */
export const turnRunId = (threadWorkflowId: string, turn: number): string => `${threadWorkflowId}-turn-${turn}`;

export const turnOf = (state: ThreadState, turnId: string): ThreadTurnRecord | undefined =>
  state.turns.find((t) => t.turnId === turnId);

export const runningTurn = (state: ThreadState): ThreadTurnRecord | undefined =>
  state.turns.find((t) => t.status === 'running');

/**
 * Why the thread refuses `request` (a validator's message), or undefined when it takes it. A
 * repeated turn id is taken (it answers with its receipt) even while its run is running.
 */
export function turnRefusal(state: ThreadState, owner: CallerContext, request: ThreadTurnRequest): string | undefined {
  if (request.by.id !== owner.id || (request.by.tenant ?? null) !== (owner.tenant ?? null))
    return 'This thread belongs to another caller: only its owner sends turns to it.';
  if (turnOf(state, request.turnId)) return undefined;
  const running = runningTurn(state);
  if (running)
    return `Turn ${running.turn} is still running (run ${running.runId}): answer its approval or question, or wait for its answer, before the next turn.`;
  return undefined;
}

/** Takes a new turn as running, numbered after every turn taken; drops the oldest past MAX_THREAD_TURNS_KEPT. */
export function takeTurn(
  state: ThreadState,
  request: ThreadTurnRequest,
  runId: (turn: number) => string,
  now: number,
): { state: ThreadState; record: ThreadTurnRecord } {
  const turn = state.totalTurns + 1;
  const record: ThreadTurnRecord = {
    turn,
    turnId: request.turnId,
    runId: runId(turn),
    user: cutText(request.text, MAX_THREAD_TEXT_CHARS),
    status: 'running',
  };
  const turns = [...state.turns, record].slice(-MAX_THREAD_TURNS_KEPT);
  return { state: { ...state, turns, totalTurns: turn, lastActivityAt: now }, record };
}

/** Records how turn `turn` ended (its answer cut to MAX_THREAD_TEXT_CHARS); a turn no longer kept is ignored. */
export function settleTurn(
  state: ThreadState,
  turn: number,
  ended: { status: Exclude<ThreadTurnStatus, 'running'>; answer?: string },
  now: number,
): ThreadState {
  const turns = state.turns.map((t) =>
    t.turn === turn
      ? {
          ...t,
          status: ended.status,
          ...(ended.answer !== undefined ? { answer: cutText(ended.answer, MAX_THREAD_TEXT_CHARS) } : {}),
        }
      : t,
  );
  return { ...state, turns, lastActivityAt: now };
}

/** Forgets a turn whose run could not start (the update failed), keeping its number used. */
export function dropTurn(state: ThreadState, turn: number): ThreadState {
  return { ...state, turns: state.turns.filter((t) => t.turn !== turn) };
}

/**
 * How a turn's run ended, from its result: its final answer, or the reason it stopped. Reads any
 * value. The answer is kept as the developer's view shows it (viewResult: the run's sensitive
 * values and secret-shaped text redacted): it is fed to every later turn's run, whose chain does
 * not know those values were sensitive. A result that cannot be viewed keeps no answer.
 */
export function endedTurn(recorded: Partial<AgentResult> | undefined): {
  status: Exclude<ThreadTurnStatus, 'running'>;
  answer: string;
} {
  const result = viewedTurnResult(recorded);
  const reason = typeof result?.terminationReason === 'string' ? result.terminationReason : 'error';
  const final = typeof result?.finalAnswer === 'string' ? result.finalAnswer : '';
  if (reason === 'success') return { status: 'completed', answer: final };
  const why = typeof result?.error === 'string' ? result.error : final;
  return {
    status: reason === 'cancelled' ? 'cancelled' : 'failed',
    answer: `The run ended ${reason}${why ? `: ${why}` : '.'}`,
  };
}

/** The result in the developer's view; its reason alone when it cannot be read as a result. */
function viewedTurnResult(result: Partial<AgentResult> | undefined): Partial<AgentResult> | undefined {
  if (!result) return undefined;
  const reason = typeof result.terminationReason === 'string' ? { terminationReason: result.terminationReason } : {};
  if (!Array.isArray(result.chain?.steps)) return reason;
  try {
    return viewResult(result as AgentResult, 'developer');
  } catch {
    return reason;
  }
}

/** Time (ms) left before the idle thread completes; the clock starts at its last activity, or at `startedAt`. */
export const idleLeft = (state: ThreadState, startedAt: number, now: number, idleMs: number): number =>
  (state.lastActivityAt ?? startedAt) + idleMs - now;

export function threadView(state: ThreadState): ThreadView {
  return { threadId: state.threadId, turns: state.turns.map((t) => ({ ...t })), totalTurns: state.totalTurns };
}
