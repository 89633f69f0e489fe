import type { ModelReply, ToolUseBlock } from '../../shared';

/** What the loop does after a model reply. The workflow switches on `kind` exhaustively. */
export type NextStep = { thought?: string } & (
  | { kind: 'final_answer'; answer: string; via: 'finish_tool'; finishCall: ToolUseBlock; skipped: ToolUseBlock[] }
  | { kind: 'final_answer'; answer: string; via: 'text_reply' }
  | { kind: 'run_tools'; calls: ToolUseBlock[] }
  | { kind: 'invalid_finish'; finishCall: ToolUseBlock; others: ToolUseBlock[]; problem: string }
  | { kind: 'give_up'; reason: string; call: ToolUseBlock; skipped: ToolUseBlock[] }
  | { kind: 'format_error'; message: string }
);

export const replyText = (reply: ModelReply): string =>
  reply.content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
    .trim();

/**
 * Seed 004's protocol for native tool calling: a `finish` call ends the run with its `result`;
 * a reply without tool calls is the answer (an empty one is a format error); anything else runs
 * the requested tools. Tool calls
 * made in the same turn as a valid finish are not run (the answer was written without their
 * results) and are reported.
 */
export function decideNextStep(reply: ModelReply, finishToolName: string, giveUpToolName: string): NextStep {
  const calls = reply.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
  const finishCall = calls.find((c) => c.name === finishToolName);
  const giveUp = calls.find((c) => c.name === giveUpToolName);
  if (giveUp && !finishCall) return giveUpStep(giveUp, calls);
  if (finishCall) {
    const others = calls.filter((c) => c !== finishCall);
    const result = finishCall.input['result'];
    if (typeof result !== 'string' || result.trim() === '') {
      return { kind: 'invalid_finish', finishCall, others, problem: `"${finishToolName}" needs a non-empty string "result".` };
    }
    return { kind: 'final_answer', answer: result, via: 'finish_tool', finishCall, skipped: others };
  }
  if (calls.length === 0) {
    const text = replyText(reply);
    // An empty reply is not an answer: the model is told, like any reply that cannot be used.
    if (!text) return { kind: 'format_error', message: `Your reply was empty. Call a tool, or call "${finishToolName}" with your answer.` };
    return { kind: 'final_answer', answer: text, via: 'text_reply' };
  }
  return { kind: 'run_tools', calls };
}

/** The model declares the task impossible; other calls of the same turn are not run. */
export function giveUpStep(call: ToolUseBlock, calls: readonly ToolUseBlock[]): NextStep {
  const reason = typeof call.input['reason'] === 'string' && call.input['reason'].trim() ? call.input['reason'].trim() : 'The model gave up without a reason.';
  return { kind: 'give_up', reason, call, skipped: calls.filter((c) => c !== call) };
}
