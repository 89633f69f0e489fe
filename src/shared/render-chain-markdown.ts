import type { ReasoningChain, ReasoningStep } from './chain';

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max)}…`);
const json = (value: unknown, max: number): string => clip(typeof value === 'string' ? value : JSON.stringify(value), max);

/** One line of markdown per step; hidden steps show only that they exist. */
export function renderStepMarkdown(step: ReasoningStep): string {
  const head = `${step.stepNumber}.`;
  if (step.visibility.level === 'hidden') return `${head} _(hidden ${step.type})_`;
  if (step.visibility.level === 'summary' && step.visibility.summary) return `${head} ${step.visibility.summary}`;
  switch (step.type) {
    case 'thinking':
      return `${head} **Thought** ${clip(step.thought, 300)}`;
    case 'tool_call':
      return step.toolCall.toolType === 'llm'
        ? `${head} **Model call** \`${step.toolCall.toolName}\`${typeof step.toolCall.arguments['note'] === 'string' ? ` (${step.toolCall.arguments['note']})` : ''}`
        : `${head} **Action** \`${step.toolCall.toolName}\` ${json(step.toolCall.arguments, 200)}`;
    case 'tool_result': {
      const r = step.toolResult;
      if (step.model) return `${head} **Model reply** ${step.usage ? `${step.usage.inputTokens}→${step.usage.outputTokens} tokens` : ''} (${r.durationMs} ms)`;
      return r.success
        ? `${head} **Observation** ${json(r.result, 300)} (${r.durationMs} ms)`
        : `${head} **Observation (error)** ${clip(r.error ?? 'failed', 300)}`;
    }
    case 'synthesis':
      return `${head} **Answer** ${clip(step.synthesis.conclusion, 500)}`;
  }
}

/**
 * Markdown for the Web UI's "Current Details": the latest steps, newest last. `totalSteps` is the
 * whole chain's length when `chain` holds only its latest steps.
 */
export function renderChainMarkdown(chain: ReasoningChain, maxSteps = 40, totalSteps = chain.steps.length): string {
  const shown = chain.steps.slice(-maxSteps);
  const omitted = totalSteps - shown.length;
  return [
    `### ${chain.agentName}: ${clip(chain.task, 200)}`,
    `Status: **${chain.status}** · ${totalSteps} steps`,
    '',
    ...(omitted > 0 ? [`_${omitted} earlier steps not shown; query \`chain\` for all._`] : []),
    ...shown.map(renderStepMarkdown),
  ].join('\n');
}
