import { ApplicationFailure } from '@temporalio/common';
import {
  FailureType,
  zeroUsage,
  type AssistantBlock,
  type ModelReply,
  type ModelRequest,
  type TokenUsage,
} from '../../domain';
import type { ModelProvider } from '../../domain/model/model-provider';

/** One canned turn: fixed content, or content computed from the request (e.g. to quote tool results). */
export interface ScriptedTurn {
  content: AssistantBlock[] | ((request: ModelRequest) => AssistantBlock[]);
  stopReason?: string;
  usage?: Partial<TokenUsage>;
  costUsd?: number;
  /**
   * Recorded for a call beside the loop's conversation (the planner's: isSideCall). The scripted
   * model plays turns in order whatever this says; a replayed evaluation answers side calls from these turns.
   */
  side?: boolean;
}

export class ScriptExhaustedError extends Error {
  override readonly name = 'ScriptExhaustedError';
}

export interface ScriptedModel extends ModelProvider {
  /** Every request received, in order. */
  readonly calls: readonly ModelRequest[];
  /** Throws when the script ran out during the run or when turns were left unused. */
  verify(): void;
}

/**
 * A model that plays back ordered turns and fails loudly: a call past the end is a non-retryable
 * failure (and `verify()` reports it), and turns left over make `verify()` throw too.
 */
export function createScriptedModel(turns: readonly ScriptedTurn[]): ScriptedModel {
  const calls: ModelRequest[] = [];
  let overrun = 0;
  return {
    name: 'scripted',
    calls,
    async complete(request) {
      calls.push(request);
      const turn = turns[calls.length - 1];
      if (!turn) {
        overrun += 1;
        const message = `Scripted model exhausted: call ${calls.length} but the script has ${turns.length} turns.`;
        throw ApplicationFailure.create({ type: FailureType.ScriptExhausted, message, nonRetryable: true });
      }
      const content = typeof turn.content === 'function' ? turn.content(request) : turn.content;
      const usage = { ...zeroUsage(), inputTokens: 100, outputTokens: 20, ...turn.usage };
      const reply: ModelReply = {
        content,
        stopReason: turn.stopReason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
        model: request.model,
        usage,
        costUsd: turn.costUsd ?? 0,
        durationMs: 0,
      };
      return reply;
    },
    verify() {
      if (overrun > 0)
        throw new ScriptExhaustedError(`Scripted model was called ${overrun} time(s) past its ${turns.length} turns.`);
      if (calls.length < turns.length) {
        throw new ScriptExhaustedError(
          `Scripted model used ${calls.length} of ${turns.length} turns; the rest were never requested.`,
        );
      }
    },
  };
}

let scriptedIds = 0;
/** Builders for concise scripts. Ids only need to be unique within one conversation. */
export const say = (text: string): AssistantBlock => ({ type: 'text', text });
export const useTool = (name: string, input: Record<string, unknown>, id?: string): AssistantBlock => ({
  type: 'tool_use',
  id: id ?? `toolu_scripted_${++scriptedIds}`,
  name,
  input,
});
