import type { ReasoningStep } from '../chain/chain';

const json = (value: unknown): string => (value === undefined ? '' : (JSON.stringify(value) ?? ''));

/**
 * The text a step's search and filters match on: its thought, its call's tool name and
 * arguments, its result and error, or its conclusion. One definition for the store (which
 * matches raw steps) and the readers (which re-check the step as the caller's view shows it), so
 * a step that matched raw and whose view shows the same text matches again.
 */
export function stepText(step: ReasoningStep): string {
  switch (step.type) {
    case 'thinking':
      return step.thought;
    case 'tool_call':
      return `${step.toolCall.toolName} ${json(step.toolCall.arguments)}`;
    case 'tool_result':
      return [json(step.toolResult.result), step.toolResult.error ?? ''].join(' ');
    case 'synthesis':
      return step.synthesis.conclusion;
  }
}

/** Characters of context either side of a search match. */
const EXCERPT_SIDE = 60;

/** Up to EXCERPT_SIDE characters either side of the first match of `needle` (any case) in the step's text. */
export function stepExcerpt(step: ReasoningStep, needle: string): string {
  const text = stepText(step);
  const at = text.toLowerCase().indexOf(needle.toLowerCase());
  const start = Math.max(0, at - EXCERPT_SIDE);
  const end = Math.min(text.length, at + needle.length + EXCERPT_SIDE);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
