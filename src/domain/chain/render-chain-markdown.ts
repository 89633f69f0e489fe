import type { ReasoningChain, ReasoningStep } from './chain';
import { markdownCode as code, markdownText as text } from '../text/markdown-escape';
import { toolResultNote } from '../tools/tool-result-note';
import { answerLabel, claimFaultsText, confidenceText, faultsOf, subAgentAnswerNote } from './answer-grounding';
import { counted } from '../text/counted';
import { consensusSummary } from '../model/consensus-summary';
import { remoteChainHeading, REMOTE_STEP_LABELS } from '../agents/remote-chain';

/** Turns a workflow id into a link target, e.g. the Web UI's page of that run. */
export type RunLink = (workflowId: string) => string;

const clip = (value: string, max: number): string => (value.length <= max ? value : `${value.slice(0, max)}…`);
const json = (value: unknown, max: number): string =>
  clip(typeof value === 'string' ? value : JSON.stringify(value), max);
/** Free text, cut, that renders as itself (no curly quotes, no dashes for `--`). */
const prose = (value: string, max: number): string => text(clip(value, max));

/** " (confidence 80%)" when the model gave one. */
const confidenceNote = (confidence: number | undefined): string => {
  const words = confidenceText(confidence);
  return words ? ` (${words})` : '';
};

/** A run's id, as a link when the caller knows where runs are shown. */
const runRef = (workflowId: string, runLink?: RunLink): string =>
  runLink ? `[${text(workflowId)}](${runLink(workflowId)})` : code(workflowId);

/**
 * One line of markdown per step; hidden steps show only that they exist. Text renders as itself:
 * arguments, results and names are code spans, free text is escaped, so all of it copies exactly.
 */
export function renderStepMarkdown(step: ReasoningStep, runLink?: RunLink): string {
  const parallel = step.parallel ? ` ∥${step.parallel.group}.${step.parallel.index}` : '';
  const head = `${step.stepNumber}.${parallel}`;
  const child = (workflowId: string) => runRef(workflowId, runLink);
  if (step.visibility.level === 'hidden') return `${head} _(hidden ${step.type})_`;
  if (step.visibility.level === 'summary' && step.visibility.summary)
    return `${head} ${prose(step.visibility.summary, 500)}`;
  switch (step.type) {
    case 'thinking': {
      const label =
        step.purpose === 'plan'
          ? 'Plan'
          : step.purpose === 'reflection'
            ? 'Reflection'
            : step.purpose === 'delegation_blocked'
              ? 'Delegation blocked'
              : 'Thought';
      return `${head} **${label}** ${prose(step.thought, 300)}${confidenceNote(step.confidence)}`;
    }
    case 'tool_call': {
      const c = step.toolCall;
      if (c.delegatedTo)
        return `${head} **Delegate** to ${code(c.toolName)} → ${child(c.delegatedTo.workflowId)} ${code(json(c.arguments, 200))}`;
      const note = c.arguments['note'];
      return c.toolType === 'llm'
        ? `${head} **Model call** ${code(c.toolName)}${typeof note === 'string' ? ` (${prose(note, 200)})` : ''}${
            c.routed !== undefined ? ` (routed: ${prose(c.routed, 300)})` : ''
          }`
        : `${head} **Action** ${code(c.toolName)} ${code(json(c.arguments, 200))}`;
    }
    case 'tool_result': {
      const r = step.toolResult;
      if (r.subAgent) {
        const spent = r.subAgent.usage
          ? `, ${r.subAgent.usage.inputTokens + r.subAgent.usage.outputTokens} tokens`
          : '';
        const unbacked = text(subAgentAnswerNote(r.subAgent));
        const outcome = `${text(r.subAgent.agentName)} ${r.subAgent.terminationReason ?? r.subAgent.status}${unbacked} (${counted(r.subAgent.steps ?? 0, 'step')}${spent}) ${child(r.subAgent.workflowId)}`;
        const remote = r.subAgent.remote?.chain;
        // A remote agent's linked steps, indented under the call (each a quoted line of data from elsewhere).
        const remoteLines = remote
          ? [
              `\n  - ${prose(remoteChainHeading(r.subAgent.agentName, remote), 2_400)}`,
              ...remote.steps.map((s) => `\n    - ${REMOTE_STEP_LABELS[s.type]}: ${prose(s.text, 300)}`),
            ].join('')
          : '';
        return `${head} **Sub-agent** ${outcome}: ${r.success ? code(json(r.result, 300)) : prose(r.error ?? 'failed', 300)}${remoteLines}`;
      }
      const spent = step.usage ? `${step.usage.inputTokens}→${step.usage.outputTokens} tokens ` : '';
      // A string result is an `llm` tool's answer (ask_model): name the model, its cost and the answer.
      if (step.model && typeof r.result === 'string') {
        return `${head} **Model answer** ${code(step.model)} ${spent}${step.costUsd !== undefined ? `$${step.costUsd.toFixed(4)} ` : ''}(${r.durationMs} ms): ${prose(r.result, 300)}`;
      }
      // The model that answered, which may not be the one asked (a fallback, the offline model).
      if (step.model) return `${head} **Model reply** ${code(step.model)} ${spent}(${r.durationMs} ms)`;
      const note = toolResultNote(r);
      const agreement = r.success ? consensusSummary(r.result) : undefined;
      if (agreement !== undefined) return `${head} **Consensus** ${prose(agreement, 600)} (${r.durationMs} ms)`;
      return r.success
        ? `${head} **Observation** ${code(json(r.result, 300))} (${note ? `${note}, ` : ''}${r.durationMs} ms)`
        : `${head} **Observation (error)** ${prose(r.error ?? 'failed', 300)}${note ? ` (${note})` : ''}`;
    }
    case 'synthesis': {
      // "Final answer" only for a grounded success; an answer recorded before answers were judged stays "Answer".
      const judged = answerLabel(step.synthesis);
      const title = judged?.title ?? 'Answer';
      const unsupported = claimFaultsText({
        grounding: step.synthesis.grounding,
        ...faultsOf(step.synthesis.claimCheck),
      });
      const behind = unsupported
        ? ` _(${text(unsupported)})_`
        : judged && judged.kind !== 'final' && step.synthesis.sources.length === 0
          ? ' _(no tool result behind it)_'
          : '';
      return `${head} **${text(title)}** ${prose(step.synthesis.conclusion, 500)}${behind}${confidenceNote(step.synthesis.confidence)}`;
    }
  }
}

/**
 * Markdown for the Web UI's "Current Details": the latest steps, newest last. `totalSteps` is the
 * whole chain's length when `chain` holds only its latest steps. Not recorded in history (a
 * query serves it), so its text may change without a patch.
 */
export function renderChainMarkdown(
  chain: ReasoningChain,
  maxSteps = 40,
  totalSteps = chain.steps.length,
  runLink?: RunLink,
): string {
  const shown = chain.steps.slice(-maxSteps);
  const omitted = totalSteps - shown.length;
  const plan = chain.plan;
  const done = plan ? plan.tasks.filter((t) => t.status === 'completed').length : 0;
  const marks: Record<string, string> = { pending: '○', in_progress: '▶', completed: '✓', failed: '✗', blocked: '⊘' };
  const children = chain.subAgents ?? [];
  return [
    `### ${text(chain.agentName)}: ${prose(chain.task, 200)}`,
    `Status: **${chain.status}** · ${counted(totalSteps, 'step')}`,
    ...(plan
      ? [
          '',
          `**Plan** v${plan.version} · ${done}/${plan.tasks.length} done`,
          ...plan.tasks.map((t) => `- ${marks[t.status] ?? '?'} ${text(t.id)} ${prose(t.description, 120)}`),
        ]
      : []),
    ...(children.length
      ? [
          '',
          `**Sub-agents** (${children.length})`,
          ...children.map(
            (r) => `- ${text(r.agentName)} · ${r.terminationReason ?? r.status} · ${runRef(r.workflowId, runLink)}`,
          ),
        ]
      : []),
    '',
    ...(omitted > 0 ? [`_${omitted} earlier steps not shown; query \`chain\` for all._`] : []),
    ...shown.map((step) => renderStepMarkdown(step, runLink)),
  ].join('\n');
}
