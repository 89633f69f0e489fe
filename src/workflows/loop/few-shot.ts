import type { AgentDefinition, AgentExample, AgentExampleStep } from '../../domain/agents/agent-definition';

/**
 * Few-shot examples as the system prompt shows them, for both strategies (native tools and text
 * ReAct): each a task, the steps that led to its answer when it has them (a compact ReAct trace,
 * seed 000's Thought / Action / Action Input / Observation), and the answer, inside `<example>`
 * tags, numbered, in the definition's order. Examples without steps render as they always did.
 * Pure and deterministic; the empty list renders as nothing. Bounded by the definition's schema.
 */
export function renderFewShot(examples: readonly AgentExample[]): string {
  if (examples.length === 0) return '';
  const shown = examples.map((e, i) => {
    const trace = e.steps?.length ? `\n<trace>\n${e.steps.map(traceStep).join('\n\n')}\n</trace>` : '';
    return `<example index="${i + 1}">\n<task>\n${e.task}\n</task>${trace}\n<answer>\n${e.answer}\n</answer>\n</example>`;
  });
  const traces = examples.some((e) => e.steps?.length)
    ? [
        'A trace shows the steps taken: each Thought, the tool called (Action) with its arguments as JSON (Action Input), and what it returned (Observation). Call tools as your instructions about tools say, not by writing these lines.',
      ]
    : [];
  return [
    'Examples of tasks and the answers expected for them. They show the approach and the form of an answer; they are not part of the current task.',
    ...traces,
    ...shown,
  ].join('\n\n');
}

/** One step as seed 000 writes it; a step without a thought starts at its action. */
function traceStep(step: AgentExampleStep): string {
  return [
    ...(step.thought ? [`Thought: ${step.thought}`] : []),
    `Action: ${step.action.tool}`,
    `Action Input: ${JSON.stringify(step.action.arguments)}`,
    `Observation: ${step.observation}`,
  ].join('\n');
}

/** A definition's instructions followed by its rendered examples: the run's system prompt lead. */
export function agentSystemPrompt(definition: Pick<AgentDefinition, 'systemPrompt' | 'examples'>): string {
  const examples = renderFewShot(definition.examples);
  return examples ? `${definition.systemPrompt}\n\n${examples}` : definition.systemPrompt;
}
