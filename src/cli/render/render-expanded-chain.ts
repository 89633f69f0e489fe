import type { ReasoningStep } from '../../domain';
import type { ExpandedChain } from '../../client/chain/expanded-chain';
import { answeringModels, renderStep } from './render-step';
import { clip, indent } from './terminal-style';

/** Each level of sub-agent sits this far right of its parent's steps. */
const NEST = '      │ ';

/** The child a step introduces: its result, or the delegating call while no result is in the chain. */
function childAt(step: ReasoningStep, withResult: ReadonlySet<string>): string | undefined {
  if (step.type === 'tool_result') return step.toolResult.subAgent?.workflowId;
  const id = step.type === 'tool_call' ? step.toolCall.delegatedTo?.workflowId : undefined;
  return id && !withResult.has(id) ? id : undefined;
}

function renderChild(workflowId: string, child: ExpandedChain | { error: string }, prefix: string): string[] {
  if ('error' in child) return [`${prefix}${workflowId}: chain not readable (${child.error})`];
  const { chain } = child;
  return [
    `${prefix}${chain.agentName} · ${workflowId} · ${chain.status}: ${clip(chain.task.replace(/\s+/g, ' '), 160)}`,
    ...renderSteps(child, prefix),
  ];
}

function renderSteps(expanded: ExpandedChain, prefix: string): string[] {
  const steps = expanded.chain.steps;
  const withResult = new Set(
    steps.flatMap((s) => (s.type === 'tool_result' && s.toolResult.subAgent ? [s.toolResult.subAgent.workflowId] : [])),
  );
  const placed = new Set<string>();
  const answered = answeringModels(steps);
  const out: string[] = [];
  const place = (id: string): void => {
    const child = expanded.subAgents[id];
    if (!child || placed.has(id)) return;
    placed.add(id);
    out.push(...renderChild(id, child, `${prefix}${NEST}`));
  };
  for (const step of steps) {
    out.push(indent(renderStep(step, answered), prefix));
    const id = childAt(step, withResult);
    if (id) place(id);
  }
  // Children whose steps this view leaves out still show, after the run's own steps.
  Object.keys(expanded.subAgents).forEach(place);
  return out;
}

/** A run's steps with, under each sub-agent's result, that child's own steps indented (recursively). */
export function renderExpandedChain(expanded: ExpandedChain): string {
  return renderSteps(expanded, '').join('\n');
}
