import type { ReasoningStep } from '../chain/chain';
import { callPurpose } from '../chain/model-times';
import { HELD_TEXT } from '../guardrails/guardrail';
import type { AssistantBlock, ModelMessage, ModelReply, UserBlock } from '../model/model-wire';
import { zeroUsage } from '../model/usage';
import { observationText } from '../threads/conversation-ref';

/**
 * One model call of an imported run, rebuilt from its chain's steps: the conversation it was
 * sent (as far as steps say it) and the reply it got (as far as its `llm` result step says it).
 */
export interface ImportedModelCall {
  /** The call's `llm` tool_call step. */
  stepNumber: number;
  /** The provider and model the step names. */
  provider?: string;
  model: string;
  /** Tools offered to the model by name, and whether it could call them. */
  tools: string[];
  toolChoice: string;
  /** A loop turn (`turn`, or a turn's retry or fallback), or a side call (planner, judge, summary): those join no conversation. */
  side: boolean;
  /** The messages before this call: the task, then each turn's reply and the tool results it was given. */
  messages: ModelMessage[];
  /** The reply as the steps record it; undefined when the call failed. */
  reply?: ModelReply;
  /** Why there is no reply. */
  error?: string;
  /** Set when the recorded text of the reply was held for output guardrails: the steps do not have it. */
  textHeld?: boolean;
}

export interface ImportedConversation {
  calls: ImportedModelCall[];
  /**
   * The run spoke the text protocol (react-text: no tools offered, actions in the reply's text):
   * its observations were written into the next message in that protocol's words, which the steps
   * do not keep.
   */
  textProtocol: boolean;
}

type CallStep = Extract<ReasoningStep, { type: 'tool_call' }>;
type ResultStep = Extract<ReasoningStep, { type: 'tool_result' }>;

const isOwnModelCall = (step: ReasoningStep): step is CallStep =>
  step.type === 'tool_call' && step.toolCall.toolType === 'llm' && 'toolChoice' in step.toolCall.arguments;

/** What an `llm` result step keeps of a reply (model-call.ts writes it). */
interface RecordedReplyShape {
  stopReason?: unknown;
  text?: unknown;
  toolCalls?: unknown;
  /** The registered tools a run's first call described itself; its arguments name them only when the run named them. */
  describedTools?: unknown;
}

const toolCallsOf = (result: RecordedReplyShape): Array<{ id: string; name: string }> =>
  Array.isArray(result.toolCalls)
    ? result.toolCalls.filter(
        (c): c is { id: string; name: string } =>
          typeof c === 'object' && c !== null && typeof c.id === 'string' && typeof c.name === 'string',
      )
    : [];

/**
 * The model calls of an imported run rebuilt from its steps, in order. Pure. An export carries the
 * chain, not the history: each reply is its `llm` result step's text, and a tool_use block per call
 * it names, with the arguments of the tool_call step that call made (same correlation id); each
 * conversation is the task, then every turn's reply and the results of its calls (a string as it
 * is, anything else as JSON, an error's text; a call with no result step `Not run.`), as the native
 * strategy sends them. What the steps do not keep is not in it, and callers must say so: the
 * system prompt and the run's context, extended thinking blocks, text a person sent (steering,
 * answers), messages the loop added itself (a format error's note, a compaction summary), and a
 * reply's text held for the output guardrails (`textHeld`).
 */
export function rebuildImportedConversation(task: string, steps: readonly ReasoningStep[]): ImportedConversation {
  const calls = new Map<string, CallStep>();
  const results = new Map<string, ResultStep>();
  for (const step of steps) {
    if (step.type === 'tool_call') calls.set(step.toolCall.correlationId, step);
    if (step.type === 'tool_result' && !results.has(step.toolResult.correlationId))
      results.set(step.toolResult.correlationId, step);
  }
  const messages: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: task }] }];
  let pending: Array<{ id: string }> = [];
  let textProtocol = false;
  const rebuilt: ImportedModelCall[] = [];
  const observe = () => {
    if (pending.length === 0) return;
    const content: UserBlock[] = pending.map(({ id }) => {
      const result = results.get(id)?.toolResult;
      if (!result) return { type: 'tool_result', toolUseId: id, content: 'Not run.', isError: true };
      return result.success
        ? { type: 'tool_result', toolUseId: id, content: observationText(result.result), isError: false }
        : { type: 'tool_result', toolUseId: id, content: result.error ?? 'The tool failed.', isError: true };
    });
    messages.push({ role: 'user', content });
    pending = [];
  };
  for (const step of steps) {
    if (!isOwnModelCall(step)) continue;
    const args = step.toolCall.arguments;
    const purpose = callPurpose(args);
    const side = purpose !== undefined && purpose !== 'turn';
    const tools = Array.isArray(args.tools) ? args.tools.filter((t): t is string => typeof t === 'string') : [];
    const toolChoice = typeof args.toolChoice === 'string' ? args.toolChoice : 'auto';
    if (!side && tools.length === 0 && toolChoice !== 'none') textProtocol = true;
    if (!side) observe();
    const call: ImportedModelCall = {
      stepNumber: step.stepNumber,
      ...(typeof args.provider === 'string' ? { provider: args.provider } : {}),
      model: step.toolCall.toolName,
      tools,
      toolChoice,
      side,
      messages: side ? [] : [...messages],
    };
    rebuilt.push(call);
    const resultStep = results.get(step.toolCall.correlationId);
    if (!resultStep || !resultStep.toolResult.success) {
      call.error = resultStep?.toolResult.error ?? 'no result step';
      continue;
    }
    const recorded = (resultStep.toolResult.result ?? {}) as RecordedReplyShape;
    if (args.describesTools === 'all' && Array.isArray(recorded.describedTools))
      call.tools = [...recorded.describedTools.filter((t): t is string => typeof t === 'string'), ...tools];
    const text = typeof recorded.text === 'string' ? recorded.text : '';
    const uses = toolCallsOf(recorded);
    const content: AssistantBlock[] = [
      ...(text !== '' && text !== HELD_TEXT ? [{ type: 'text' as const, text }] : []),
      ...uses.map((u) => ({
        type: 'tool_use' as const,
        id: u.id,
        name: u.name,
        input: calls.get(u.id)?.toolCall.arguments ?? {},
      })),
    ];
    if (text === HELD_TEXT) call.textHeld = true;
    call.reply = {
      content,
      stopReason: typeof recorded.stopReason === 'string' ? recorded.stopReason : 'end_turn',
      model: resultStep.model ?? step.toolCall.toolName,
      usage: resultStep.usage ?? zeroUsage(),
      costUsd: resultStep.costUsd ?? 0,
      durationMs: resultStep.toolResult.durationMs,
    };
    if (side) continue;
    // The API refuses an empty assistant turn: a reply with nothing left joins no conversation.
    if (content.length > 0) messages.push({ role: 'assistant', content });
    pending = uses;
  }
  return { calls: rebuilt, textProtocol };
}
