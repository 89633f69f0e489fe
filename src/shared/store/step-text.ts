import type { ReasoningStep } from '../chain';

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
