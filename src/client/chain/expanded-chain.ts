import type { ReasoningChain } from '../../domain';
import { readErrorText } from '../errors/read-error-text';

/** A run's chain with its sub-agents' chains, each expanded in turn. */
export interface ExpandedChain {
  chain: ReasoningChain;
  /** By the child's workflow id; `error` says why its chain could not be read. */
  subAgents: Record<string, ExpandedChain | { error: string }>;
}

/** Child runs a chain points to: delegated calls and sub-agent results, less refused ones (never started). */
export function childRunIds(chain: ReasoningChain): string[] {
  const ids = new Set<string>();
  const refused = new Set<string>();
  for (const run of chain.subAgents ?? []) (run.status === 'refused' ? refused : ids).add(run.workflowId);
  for (const step of chain.steps) {
    if (step.type === 'tool_call' && step.toolCall.delegatedTo) ids.add(step.toolCall.delegatedTo.workflowId);
    const run = step.type === 'tool_result' ? step.toolResult.subAgent : undefined;
    if (run) (run.status === 'refused' ? refused : ids).add(run.workflowId);
  }
  return [...ids].filter((id) => !refused.has(id));
}

/**
 * Reads `rootId`'s chain and, recursively and siblings in parallel, its sub-agents' chains. A
 * child that cannot be read keeps its error in place; only the root's failure fails the walk.
 * `expands`: whether a chain's sub-agents' chains may be read (default: always).
 */
export async function loadExpandedChain(
  rootId: string,
  readChain: (workflowId: string) => Promise<ReasoningChain>,
  expands: (chain: ReasoningChain) => boolean = () => true,
): Promise<ExpandedChain> {
  return expand(await readChain(rootId), readChain, new Set([rootId]), expands);
}

async function expand(
  chain: ReasoningChain,
  readChain: (workflowId: string) => Promise<ReasoningChain>,
  seen: Set<string>,
  expands: (chain: ReasoningChain) => boolean,
): Promise<ExpandedChain> {
  // A visibility policy that shows this chain's sub-agents as summaries, or not at all, opens none.
  if (!expands(chain)) return { chain, subAgents: {} };
  // Listed once, so a chain that names an ancestor cannot loop.
  const ids = childRunIds(chain).filter((id) => !seen.has(id));
  for (const id of ids) seen.add(id);
  const children = await Promise.all(
    ids.map(async (id): Promise<[string, ExpandedChain | { error: string }]> => {
      try {
        return [id, await expand(await readChain(id), readChain, seen, expands)];
      } catch (err) {
        return [id, { error: readErrorText(err) }];
      }
    }),
  );
  return { chain, subAgents: Object.fromEntries(children) };
}
