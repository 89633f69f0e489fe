import type { AgentInput, DelegationLink } from '../../domain';

/** The agents from the root down to this run, this run last. */
export function delegationPath(
  input: Pick<AgentInput, 'delegation' | 'agentName'>,
  workflowId: string,
): DelegationLink[] {
  return input.delegation?.path ?? [{ agentName: input.agentName, workflowId }];
}

/** The deepest a child of this run may be: the root's setting travels down unchanged. */
export function maxDepthOf(input: Pick<AgentInput, 'delegation' | 'maxDelegationDepth'>): number {
  return input.delegation?.maxDepth ?? input.maxDelegationDepth;
}

/** How many levels of sub-agents may still be below this run. */
export function levelsBelow(
  input: Pick<AgentInput, 'delegation' | 'agentName' | 'maxDelegationDepth'>,
  workflowId: string,
): number {
  return Math.max(0, maxDepthOf(input) - (delegationPath(input, workflowId).length - 1));
}

/**
 * Why delegating to `agentName` from here is refused, or undefined when it may go ahead: a cycle
 * (the agent is already on the path) or a child deeper than the limit (the root is depth 0).
 */
export function delegationBlocked(
  path: readonly DelegationLink[],
  agentName: string,
  maxDepth: number,
): string | undefined {
  const names = path.map((l) => l.agentName);
  const loopAt = names.indexOf(agentName);
  if (loopAt >= 0) {
    return `Delegation refused: ${[...names.slice(loopAt), agentName].join(' → ')} would be a cycle (the full path is ${[...names, agentName].join(' → ')}). Do this part yourself or ask a different agent.`;
  }
  const depth = path.length;
  if (depth > maxDepth) {
    return `Delegation refused: ${[...names, agentName].join(' → ')} would be ${depth} levels deep, and the limit is ${maxDepth}. Do this part yourself.`;
  }
  return undefined;
}
