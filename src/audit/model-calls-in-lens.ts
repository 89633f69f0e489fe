import type { AuditModelCall } from './audit-report';
import {
  observationText,
  type AssistantBlock,
  type ModelMessage,
  type ReasoningChain,
  type ReasoningStep,
  type VisibilityLevel,
} from '../domain';
import { viewChain } from '../domain/chain/chain-view';
import type { ViewLens } from '../domain/visibility';
import { HIDDEN_RESULT, HIDDEN_THINKING } from '../domain/visibility/hidden-text';
import { HELD_TEXT } from '../domain/guardrails/guardrail';
import { callLensLevel, isEmptyLens, lensLevel } from '../domain/visibility/lens-level';
import type { CallKindFacts } from '../domain/visibility/step-kind';

export { HIDDEN_RESULT, HIDDEN_THINKING };
/** A tool result shorter than this is not looked for in free text (react-text observations): it would hit ordinary words. */
const MIN_QUOTED_RESULT_CHARS = 16;

/** Why a response has fewer model calls than the run made: the lens left some out. */
export const modelCallsLeftOutNote = (n: number): string =>
  `${n} model call(s) are left out: the visibility policy shows them at summary level or not at all in the auditor's view.`;

/** Why a sub-agent's own run shows no model calls: the lens shows sub-agents' chains as summaries. */
export const SUB_CHAIN_SUMMARY_NOTE =
  "The visibility policy shows sub-agents' own chains as summaries (subChains: summary): their model calls are not shown.";

/** The model calls a viewer may read, and how many the lens left out. */
export interface ModelCallsInLens {
  calls: AuditModelCall[];
  leftOut: number;
}

/** The chain's steps by correlation id: each call's facts, and its call and result steps. */
interface ChainIndex {
  facts: Map<string, CallKindFacts>;
  calls: Map<string, ReasoningStep>;
  results: Map<string, ReasoningStep>;
  viewed: Map<number, ReasoningStep>;
}

function indexOf(chain: ReasoningChain, lens: ViewLens): ChainIndex {
  const index: ChainIndex = { facts: new Map(), calls: new Map(), results: new Map(), viewed: new Map() };
  for (const step of chain.steps) {
    if (step.type === 'tool_call') {
      const { correlationId, toolType, toolName } = step.toolCall;
      index.facts.set(correlationId, { toolType, toolName });
      index.calls.set(correlationId, step);
    }
    if (step.type === 'tool_result') index.results.set(step.toolResult.correlationId, step);
  }
  for (const step of viewChain(chain, 'auditor', lens).steps) index.viewed.set(step.stepNumber, step);
  return index;
}

/** A step's level in the auditor's view under the lens (the auditor's own is full). */
const levelOf = (step: ReasoningStep, index: ChainIndex, lens: ViewLens): VisibilityLevel =>
  lensLevel(step, index.facts, lens) ?? 'full';

/** The level of the call a tool_use block asked for: its step's, else by its tool's name (type unknown: the narrowest). */
function callLevel(id: string, name: string, index: ChainIndex, lens: ViewLens): VisibilityLevel {
  const step = index.calls.get(id);
  if (step) return levelOf(step, index, lens);
  return callLensLevel(index.facts.get(id), name, lens) ?? 'full';
}

/** What a tool_result block may say: as it is, the summary the chain shows, or that it is hidden. */
function resultText(id: string, content: string, index: ChainIndex, lens: ViewLens): string {
  const step = index.results.get(id);
  // A result the chain does not hold (cut short, a lost attempt) takes the narrowest result rule: unknown never shows more.
  const synthetic = { type: 'tool_result', toolResult: { correlationId: id } } as ReasoningStep;
  const level = levelOf(step ?? synthetic, index, lens);
  if (level === 'full') return content;
  const viewed = step ? index.viewed.get(step.stepNumber) : undefined;
  const summary = viewed?.type === 'tool_result' ? viewed.toolResult.result : null;
  return level === 'summary' && summary !== null && summary !== undefined ? observationText(summary) : HIDDEN_RESULT;
}

/**
 * The texts of the results the lens does not show whole, as the model received them: a text
 * protocol quotes them in a user message instead of a tool_result block.
 */
function narrowedTexts(index: ChainIndex, lens: ViewLens): string[] {
  const texts: string[] = [];
  for (const step of index.results.values()) {
    if (step.type !== 'tool_result' || levelOf(step, index, lens) === 'full') continue;
    const text = observationText(step.toolResult.result);
    if (typeof text === 'string' && text.length >= MIN_QUOTED_RESULT_CHARS) texts.push(text);
  }
  return texts.sort((a, b) => b.length - a.length);
}

interface Shaper {
  assistant(block: AssistantBlock): AssistantBlock;
  message(message: ModelMessage): ModelMessage;
}

function shaper(index: ChainIndex, lens: ViewLens): Shaper {
  const thinkingShown = (lens.steps.thinking ?? 'full') === 'full';
  const quoted = narrowedTexts(index, lens);
  const unquote = (text: string): string =>
    quoted.reduce((out, hidden) => (out.includes(hidden) ? out.split(hidden).join(HIDDEN_RESULT) : out), text);
  const assistant = (block: AssistantBlock): AssistantBlock => {
    if (block.type === 'tool_use')
      return callLevel(block.id, block.name, index, lens) === 'full' ? block : { ...block, input: {} };
    if (block.type === 'thinking' && !thinkingShown) return { ...block, thinking: HIDDEN_THINKING };
    // The reply's text is the thought the chain records: hidden with thinking, as the chain's model results hide it.
    if (block.type === 'text' && !thinkingShown) return { ...block, text: HIDDEN_THINKING };
    return block;
  };
  return {
    assistant,
    message(message) {
      if (message.role === 'assistant') return { ...message, content: message.content.map(assistant) };
      return {
        ...message,
        content: message.content.map((block) =>
          block.type === 'tool_result'
            ? { ...block, content: resultText(block.toolUseId, block.content, index, lens) }
            : { ...block, text: unquote(block.text) },
        ),
      };
    },
  };
}

/**
 * The calls whose `llm` step held its reply for the output guardrails (HELD_TEXT) export no more
 * of it than the step shows: a blocked answer reaches no one, the auditor included.
 */
function withoutHeldReplies(calls: readonly AuditModelCall[], chain: ReasoningChain): readonly AuditModelCall[] {
  const held = new Set<string>();
  for (const step of chain.steps)
    if (step.type === 'tool_result' && (step.toolResult.result as { text?: unknown } | null)?.text === HELD_TEXT)
      held.add(step.toolResult.correlationId);
  if (!held.size) return calls;
  const heldNumbers = new Set(
    chain.steps.flatMap((s) => (s.type === 'tool_call' && held.has(s.toolCall.correlationId) ? [s.stepNumber] : [])),
  );
  const hide = (block: AssistantBlock): AssistantBlock =>
    block.type === 'text'
      ? { ...block, text: HELD_TEXT }
      : block.type === 'thinking'
        ? { ...block, thinking: HELD_TEXT }
        : block.type === 'tool_use'
          ? { ...block, input: {} }
          : block;
  return calls.map((call) =>
    heldNumbers.has(call.stepNumber) && call.reply
      ? { ...call, reply: { ...call.reply, content: call.reply.content.map(hide) } }
      : call,
  );
}

/**
 * The model calls as the auditor's view under `lens` shows the run (the policy's `security`
 * layer binds the auditor too): a call whose `llm` step or result the lens does not show whole is
 * left out; in the rest, a tool result the lens hides is replaced (summarised where it shows its
 * summary), a call it does not show whole loses its arguments, and extended thinking it does not
 * show is replaced, with the model's own text (the thought the chain records), in the messages
 * sent and the reply alike. No lens: the calls as they are. Pure. `chain` is the run's whole
 * chain in the auditor's view without the lens (every step, the hidden ones included).
 */
export function modelCallsInLens(
  calls: readonly AuditModelCall[],
  chain: ReasoningChain,
  lens: ViewLens | undefined,
): ModelCallsInLens {
  calls = withoutHeldReplies(calls, chain);
  if (!lens || isEmptyLens(lens)) return { calls: [...calls], leftOut: 0 };
  const index = indexOf(chain, lens);
  const shape = shaper(index, lens);
  const byNumber = new Map(chain.steps.map((step) => [step.stepNumber, step]));
  const shown: AuditModelCall[] = [];
  for (const call of calls) {
    const step = byNumber.get(call.stepNumber);
    const result = step?.type === 'tool_call' ? index.results.get(step.toolCall.correlationId) : undefined;
    if (!step || levelOf(step, index, lens) !== 'full' || (result && levelOf(result, index, lens) !== 'full')) continue;
    const { request, reply } = call;
    shown.push({
      ...call,
      request: { ...request, messages: request.messages.map(shape.message) },
      ...(reply ? { reply: { ...reply, content: reply.content.map(shape.assistant) } } : {}),
    });
  }
  return { calls: shown, leftOut: calls.length - shown.length };
}
