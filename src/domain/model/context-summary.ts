import { z } from 'zod';
import { redactSecretsInText } from '../secrets/secret-patterns';
import { ModelProviderName, type ModelMessage } from './model-wire';
import { ModelPrice } from './model-settings';

/**
 * Model-written summaries of the turns compaction drops (seed 001 #37): the settings, the prompt
 * and the conversation block the summary becomes. Pure and sandbox-safe; the call itself is the
 * workflow's (workflows/model/summarise-turns.ts).
 */

/** The default and the bounds of a summary's length, in characters. */
export const DEFAULT_CONTEXT_SUMMARY_CHARS = 4_000;
export const MIN_CONTEXT_SUMMARY_CHARS = 200;
export const MAX_CONTEXT_SUMMARY_CHARS = 20_000;
/** The most of the dropped turns (rendered as text) one summary call reads; beyond it they are cut. */
export const CONTEXT_SUMMARY_SOURCE_CHARS = 40_000;
/** A summary takes at most this share of `maxContextChars`, so it never crowds out the turns it makes room for. */
const SHARE_OF_CONTEXT = 5;

/** `AgentInput.contextSummary`: off when absent. */
export const ContextSummarySettings = z.object({
  /** The model that writes summaries; the run's own model when absent. Subject to `allowedModels`. */
  model: z.object({ provider: ModelProviderName, model: z.string().min(1), price: ModelPrice.optional() }).optional(),
  /** A summary's most characters (also at most a fifth of `maxContextChars`); longer replies are cut. */
  maxChars: z
    .number()
    .int()
    .min(MIN_CONTEXT_SUMMARY_CHARS)
    .max(MAX_CONTEXT_SUMMARY_CHARS)
    .default(DEFAULT_CONTEXT_SUMMARY_CHARS),
});
export type ContextSummarySettings = z.infer<typeof ContextSummarySettings>;

/** The characters a summary may take in a conversation kept under `maxContextChars`. */
export function contextSummaryLimit(settings: ContextSummarySettings, maxContextChars: number): number {
  return Math.max(1, Math.min(settings.maxChars, Math.floor(maxContextChars / SHARE_OF_CONTEXT)));
}

/** How every summary block in a conversation starts; a later summary replaces it. */
export const CONTEXT_SUMMARY_PREFIX = '[Context summary of';

/** The block the task message carries in place of `turns` dropped turns. */
export function contextSummaryBlock(summary: string, turns: number): string {
  return `${CONTEXT_SUMMARY_PREFIX} ${turns} earlier turns, written when they were removed to fit the context window; the run's chain keeps them in full:\n${summary}]`;
}

/** The summary an earlier compaction left in the task message, without its framing; undefined when none. */
export function previousContextSummary(task: ModelMessage | undefined): string | undefined {
  if (task?.role !== 'user') return undefined;
  for (const block of task.content) {
    if (block.type !== 'text' || !block.text.startsWith(CONTEXT_SUMMARY_PREFIX)) continue;
    const start = block.text.indexOf(':\n');
    return start < 0 ? undefined : block.text.slice(start + 2, -1);
  }
  return undefined;
}

/** The system prompt of a summary call; the offline model recognises it. */
export function contextSummarySystem(): string {
  return "You summarise the earlier part of an agent's conversation that no longer fits its context window. Keep every fact, number, name, error and decision the task still needs, and what is left to do; drop repetition. Reply with the summary only, as plain text.";
}

/** The dropped messages as plain text: who said what, which tool was called with what, what came back. */
export function renderDroppedTurns(messages: readonly ModelMessage[]): string {
  const lines: string[] = [];
  for (const message of messages)
    for (const block of message.content) {
      if (block.type === 'text') lines.push(`${message.role === 'user' ? 'User' : 'Assistant'}: ${block.text}`);
      else if (block.type === 'tool_use') lines.push(`Tool call ${block.name} ${JSON.stringify(block.input)}`);
      else if (block.type === 'tool_result')
        lines.push(`Tool result${block.isError ? ' (error)' : ''}: ${block.content}`);
    }
  return lines.join('\n');
}

/** The user message of a summary call: the task, the summary so far, the dropped turns (cut to the source limit). */
export function contextSummaryPrompt(
  task: string,
  previous: string | undefined,
  dropped: readonly ModelMessage[],
  limitChars: number,
): string {
  const turns = renderDroppedTurns(dropped);
  const cut =
    turns.length > CONTEXT_SUMMARY_SOURCE_CHARS
      ? `${turns.slice(0, CONTEXT_SUMMARY_SOURCE_CHARS)}\n…[cut: ${CONTEXT_SUMMARY_SOURCE_CHARS} of ${turns.length} characters]`
      : turns;
  const before = previous ? `Summary of the turns before these:\n${previous}\n\n` : '';
  return `Task: ${task}\n\n${before}Turns to summarise (${dropped.length} messages):\n${cut}\n\nWrite the summary in under ${limitChars} characters.`;
}

/** A model's reply made fit for the conversation: secrets redacted, cut to `limitChars`; undefined when empty. */
export function boundedContextSummary(reply: string, limitChars: number): string | undefined {
  const text = redactSecretsInText(reply.trim());
  if (!text) return undefined;
  return text.length <= limitChars ? text : `${text.slice(0, Math.max(0, limitChars - 1))}…`;
}
