import type { AgentInputInit } from '../../domain';
import { MAX_CONTEXT_DATA_BYTES } from '../../domain/run/agent-context';
import { utf8Bytes } from '../../domain/run/payload-size';
import type { ThreadStart, ThreadTurnRecord, ThreadTurnRequest } from '../../domain/threads/thread-schemas';

/** One earlier turn as a turn's run sees it in `context.data.thread`. */
export interface EarlierTurn {
  turn: number;
  user: string;
  answer?: string;
  status: ThreadTurnRecord['status'];
}

/**
 * The earlier turns a run is given, oldest first: the most recent are kept, and the oldest cut
 * until `{ thread: [...] }` is at most `maxBytes` as JSON (MAX_CONTEXT_DATA_BYTES, the run's own
 * bound on context data). A single turn too large on its own is left out. Deterministic.
 */
export function earlierTurns(turns: readonly ThreadTurnRecord[], maxBytes = MAX_CONTEXT_DATA_BYTES): EarlierTurn[] {
  const kept: EarlierTurn[] = [];
  // `{"thread":[]}` plus a comma between entries.
  let bytes = utf8Bytes(JSON.stringify({ thread: [] }));
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i]!;
    const entry: EarlierTurn = {
      turn: t.turn,
      user: t.user,
      ...(t.answer !== undefined ? { answer: t.answer } : {}),
      status: t.status,
    };
    const size = utf8Bytes(JSON.stringify(entry)) + (kept.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) break;
    bytes += size;
    kept.unshift(entry);
  }
  return kept;
}

/**
 * The input of one turn's agent run: the turn's text as its task, the thread's agent, the earlier
 * turns as context, and, from the turn itself, never from the thread's start, the caller (the
 * owner with the roles authenticated for this turn, so run access, tenants and `requiredRoles`
 * hold as for any run) and the server's signature requirement now: a thread started before
 * `--require-signatures` obeys it from the next turn on, and a demoted owner's turn runs demoted.
 */
export function turnRunInput(
  start: ThreadStart,
  request: Pick<ThreadTurnRequest, 'text' | 'by' | 'signedDecisions'>,
  earlier: readonly ThreadTurnRecord[],
): AgentInputInit {
  const thread = earlierTurns(earlier);
  const agent = 'agent' in start.agent ? { agent: start.agent.agent, agentName: start.agent.agent } : start.agent;
  return {
    task: request.text,
    ...agent,
    caller: request.by,
    allowQuestions: start.allowQuestions,
    ...(request.signedDecisions ? { signedDecisions: request.signedDecisions } : {}),
    ...(thread.length > 0 ? { context: { data: { thread }, files: [] } } : {}),
  };
}
