import type { AgentInput, ModelReply, ToolUseBlock } from '../../domain';
import { replyText } from '../core/model-exchange';

/** What the loop does after a model reply. The loop switches on `kind` exhaustively. */
export type NextStep = {
  thought?: string;
  /** The confidence written with the thought (askConfidence), 0–1. */
  thoughtConfidence?: number;
} &
  /** Early stops, read from the reply alone before the protocol reads it; none of its calls run. */
  (
    | { kind: 'refused'; text: string }
    | { kind: 'cut_reply'; text: string; error: string }
    | { kind: 'phrase'; ending: 'success' | 'failure'; phrase: string; text: string; calls: ToolUseBlock[] }
    | {
        kind: 'final_answer';
        answer: string;
        via: 'finish_tool';
        finishCall: ToolUseBlock;
        skipped: ToolUseBlock[];
        confidence?: number;
        /** The answer's value, once checked against the run's output schema. */
        output?: unknown;
      }
    | { kind: 'final_answer'; answer: string; via: 'text_reply'; confidence?: number; output?: unknown }
    | { kind: 'run_tools'; calls: ToolUseBlock[] }
    | { kind: 'invalid_finish'; finishCall: ToolUseBlock; others: ToolUseBlock[]; problem: string }
    | { kind: 'give_up'; reason: string; call: ToolUseBlock; skipped: ToolUseBlock[] }
    | { kind: 'format_error'; message: string }
  );

/** The next steps that end the run before the protocol reads the reply. */
export type EarlyStop = Extract<NextStep, { kind: 'refused' | 'cut_reply' | 'phrase' }>;

export function isEarlyStop(next: NextStep): next is EarlyStop {
  return next.kind === 'refused' || next.kind === 'cut_reply' || next.kind === 'phrase';
}

/**
 * Replies that end the run whatever the protocol would make of them, after the model turn did
 * what it could (more room, eliding context): a refusal; a reply still cut at max_tokens or past
 * the context window (the SDK drops truncated tool input fields silently, so a call from a cut
 * reply never runs); a failure phrase, else a success phrase.
 */
export function earlyStop(
  reply: ModelReply,
  input: Pick<AgentInput, 'failurePhrases' | 'successPhrases'>,
  readsCutReplies = false,
): EarlyStop | undefined {
  const text = replyText(reply);
  const calls = reply.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
  if (reply.stopReason === 'refusal') return { kind: 'refused', text };
  if (reply.stopReason === 'max_tokens' && !readsCutReplies) {
    return {
      kind: 'cut_reply',
      text,
      error: `The reply was still cut at max_tokens after raising the limit; ${calls.length ? 'its tool calls were not run' : 'the text is partial'}.`,
    };
  }
  if (reply.stopReason === 'model_context_window_exceeded') {
    return {
      kind: 'cut_reply',
      text,
      error: 'The conversation no longer fits the context window, even after eliding older tool results.',
    };
  }
  const failure = findPhrase(text, input.failurePhrases);
  if (failure) return { kind: 'phrase', ending: 'failure', phrase: failure, text, calls };
  const success = findPhrase(text, input.successPhrases);
  if (success) return { kind: 'phrase', ending: 'success', phrase: success, text, calls };
  return undefined;
}

/** The first phrase that occurs in `text`, case-insensitively; undefined when none does. */
function findPhrase(text: string, phrases: readonly string[]): string | undefined {
  const haystack = text.toLowerCase();
  return phrases.find((p) => haystack.includes(p.toLowerCase()));
}

/**
 * The protocol for native tool calling: a `finish` call ends the run with its `result`;
 * a reply without tool calls is the answer (an empty one is a format error); anything else runs
 * the requested tools. Tool calls
 * made in the same turn as a valid finish are not run (the answer was written without their
 * results) and are reported.
 */
export function decideNextStep(
  reply: ModelReply,
  finishToolName: string,
  giveUpToolName: string,
  structured = false,
): NextStep {
  const calls = reply.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
  const finishCall = calls.find((c) => c.name === finishToolName);
  const giveUp = calls.find((c) => c.name === giveUpToolName);
  if (giveUp && !finishCall) return giveUpStep(giveUp, calls);
  if (finishCall) {
    const others = calls.filter((c) => c !== finishCall);
    const result = finishCall.input['result'];
    // With an output schema the result is a value; structuredFinal checks it against the schema.
    if (structured && result !== undefined)
      return { kind: 'final_answer', answer: JSON.stringify(result), via: 'finish_tool', finishCall, skipped: others };
    if (typeof result !== 'string' || result.trim() === '') {
      return {
        kind: 'invalid_finish',
        finishCall,
        others,
        problem: `"${finishToolName}" needs a non-empty string "result".`,
      };
    }
    return { kind: 'final_answer', answer: result, via: 'finish_tool', finishCall, skipped: others };
  }
  if (calls.length === 0) {
    const text = replyText(reply);
    // An empty reply is not an answer: the model is told, like any reply that cannot be used.
    if (!text)
      return {
        kind: 'format_error',
        message: `Your reply was empty. Call a tool, or call "${finishToolName}" with your answer.`,
      };
    return { kind: 'final_answer', answer: text, via: 'text_reply' };
  }
  return { kind: 'run_tools', calls };
}

/** The model declares the task impossible; other calls of the same turn are not run. */
export function giveUpStep(call: ToolUseBlock, calls: readonly ToolUseBlock[]): NextStep {
  const reason =
    typeof call.input['reason'] === 'string' && call.input['reason'].trim()
      ? call.input['reason'].trim()
      : 'The model gave up without a reason.';
  return { kind: 'give_up', reason, call, skipped: calls.filter((c) => c !== call) };
}
