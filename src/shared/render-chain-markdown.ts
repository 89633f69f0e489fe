import type { ReasoningChain, ReasoningStep } from './chain';

/** Turns a workflow id into a link target, e.g. the Web UI's page of that run. */
export type RunLink = (workflowId: string) => string;

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max)}…`);
const json = (value: unknown, max: number): string => clip(typeof value === 'string' ? value : JSON.stringify(value), max);

/** A run's id, as a link when the caller knows where runs are shown. */
const runRef = (workflowId: string, runLink?: RunLink): string => (runLink ? `[${workflowId}](${runLink(workflowId)})` : `\`${workflowId}\``);

/** One line of markdown per step; hidden steps show only that they exist. */
export function renderStepMarkdown(step: ReasoningStep, runLink?: RunLink): string {
  const parallel = step.parallel ? ` ∥${step.parallel.group}.${step.parallel.index}` : '';
  const head = `${step.stepNumber}.${parallel}`;
  const child = (workflowId: string) => runRef(workflowId, runLink);
  if (step.visibility.level === 'hidden') return `${head} _(hidden ${step.type})_`;
  if (step.visibility.level === 'summary' && step.visibility.summary) return `${head} ${step.visibility.summary}`;
  switch (step.type) {
    case 'thinking': {
      const label = step.purpose === 'plan' ? 'Plan' : step.purpose === 'reflection' ? 'Reflection' : step.purpose === 'delegation_blocked' ? 'Delegation blocked' : 'Thought';
      return `${head} **${label}** ${clip(step.thought, 300)}`;
    }
    case 'tool_call':
      if (step.toolCall.delegatedTo) return `${head} **Delegate** to \`${step.toolCall.toolName}\` → ${child(step.toolCall.delegatedTo.workflowId)} ${json(step.toolCall.arguments, 200)}`;
      return step.toolCall.toolType === 'llm'
        ? `${head} **Model call** \`${step.toolCall.toolName}\`${typeof step.toolCall.arguments['note'] === 'string' ? ` (${step.toolCall.arguments['note']})` : ''}`
        : `${head} **Action** \`${step.toolCall.toolName}\` ${json(step.toolCall.arguments, 200)}`;
    case 'tool_result': {
      const r = step.toolResult;
      if (r.subAgent) {
        const spent = r.subAgent.usage ? `, ${r.subAgent.usage.inputTokens + r.subAgent.usage.outputTokens} tokens` : '';
        const outcome = `${r.subAgent.agentName} ${r.subAgent.terminationReason ?? r.subAgent.status} (${r.subAgent.steps ?? 0} steps${spent}) ${child(r.subAgent.workflowId)}`;
        return `${head} **Sub-agent** ${outcome}: ${clip(r.success ? json(r.result, 300) : (r.error ?? 'failed'), 300)}`;
      }
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
export function renderChainMarkdown(chain: ReasoningChain, maxSteps = 40, totalSteps = chain.steps.length, runLink?: RunLink): string {
  const shown = chain.steps.slice(-maxSteps);
  const omitted = totalSteps - shown.length;
  const plan = chain.plan;
  const done = plan ? plan.tasks.filter((t) => t.status === 'completed').length : 0;
  const marks: Record<string, string> = { pending: '○', in_progress: '▶', completed: '✓', failed: '✗', blocked: '⊘' };
  const children = chain.subAgents ?? [];
  return [
    `### ${chain.agentName}: ${clip(chain.task, 200)}`,
    `Status: **${chain.status}** · ${totalSteps} steps`,
    ...(plan ? ['', `**Plan** v${plan.version} · ${done}/${plan.tasks.length} done`, ...plan.tasks.map((t) => `- ${marks[t.status] ?? '?'} ${t.id} ${clip(t.description, 120)}`)] : []),
    ...(children.length ? ['', `**Sub-agents** (${children.length})`, ...children.map((r) => `- ${r.agentName} · ${r.terminationReason ?? r.status} · ${runRef(r.workflowId, runLink)}`)] : []),
    '',
    ...(omitted > 0 ? [`_${omitted} earlier steps not shown; query \`chain\` for all._`] : []),
    ...shown.map((step) => renderStepMarkdown(step, runLink)),
  ].join('\n');
}
