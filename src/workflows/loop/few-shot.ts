import type { AgentDefinition, AgentExample } from '../../domain/agents/agent-definition';

/**
 * Few-shot examples as the system prompt shows them, for both strategies (native tools and text
 * ReAct): each a task and its answer inside `<example>` tags, numbered, in the definition's order.
 * Pure and deterministic; the empty list renders as nothing.
 */
export function renderFewShot(examples: readonly AgentExample[]): string {
  if (examples.length === 0) return '';
  const shown = examples.map(
    (e, i) => `<example index="${i + 1}">\n<task>\n${e.task}\n</task>\n<answer>\n${e.answer}\n</answer>\n</example>`,
  );
  return [
    'Examples of tasks and the answers expected for them. They show the approach and the form of an answer; they are not part of the current task.',
    ...shown,
  ].join('\n\n');
}

/** A definition's instructions followed by its rendered examples: the run's system prompt lead. */
export function agentSystemPrompt(definition: Pick<AgentDefinition, 'systemPrompt' | 'examples'>): string {
  const examples = renderFewShot(definition.examples);
  return examples ? `${definition.systemPrompt}\n\n${examples}` : definition.systemPrompt;
}
