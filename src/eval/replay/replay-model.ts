import { ApplicationFailure } from '@temporalio/common';
import { FailureType, zeroUsage, type ModelReply, type ModelRequest } from '../../domain';
import { isSideCall } from '../../domain/model/side-call';
import type { ModelProvider } from '../../domain/model/model-provider';
import type { ScriptedTurn } from '../../activities/models/scripted-model';

/** The provider name a replayed case's run asks for: `{ provider: 'replay', model: <caseId> }`. */
export const REPLAY_PROVIDER = 'replay';

/**
 * A model that answers each case's runs from that case's recorded replies. Stateless: the reply
 * for a request is the recording's turn number N, N being the assistant messages already in the
 * request (side calls, the planner's, are answered apart: see isSideCall), so an activity retry, a worker restart or a second run of the case (a repeat, another
 * variant) gets the same reply for the same point of its conversation. A request past the
 * recording's end fails for good (FailureType.ScriptExhausted), naming the case.
 */
export function createReplayModel(turnsOf: (caseId: string) => readonly ScriptedTurn[] | undefined): ModelProvider {
  return {
    name: REPLAY_PROVIDER,
    async complete(request: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
      if (signal.aborted) throw signal.reason;
      const turns = turnsOf(request.model);
      if (!turns) {
        const message = `No recording for case "${request.model}": a replayed run names its case as its model.`;
        throw ApplicationFailure.create({ type: FailureType.ModelBadRequest, message, nonRetryable: true });
      }
      // The planner's call is a conversation of its own: it is answered from the recording's side
      // replies, the loop's turns from the others. A side call has no assistant message to count,
      // so every one gets the first side reply: a replayed case plans once (no reflections).
      const side = isSideCall(request);
      const pool = turns.filter((t) => (t.side ?? false) === side);
      const index = request.messages.filter((m) => m.role === 'assistant').length;
      const turn = pool[index];
      if (!turn) {
        const which = side ? 'side replies (for the planner)' : 'replies';
        const message = `The recording of case "${request.model}" has ${pool.length} ${which}; the run asked for reply ${index + 1}.`;
        throw ApplicationFailure.create({ type: FailureType.ScriptExhausted, message, nonRetryable: true });
      }
      const content = typeof turn.content === 'function' ? turn.content(request) : turn.content;
      return {
        content,
        stopReason: turn.stopReason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
        model: request.model,
        usage: { ...zeroUsage(), ...turn.usage },
        costUsd: turn.costUsd ?? 0,
        durationMs: 0,
      };
    },
  };
}
