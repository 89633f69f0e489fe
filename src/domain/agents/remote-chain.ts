import { z } from 'zod';
import { ViewerRole } from '../identity/people';

/**
 * The most lines of a remote chain a parent records, and the longest line: about 6 KB a call at
 * most, since the link rides in the parent's chain, its sub-agent list and its polled `status`.
 */
export const MAX_REMOTE_CHAIN_LINES = 30;
export const MAX_REMOTE_LINE_CHARS = 200;

/** One remote step as the parent records it: its kind and one line of what it says. */
export const RemoteStepLine = z.object({
  type: z.enum(['thinking', 'tool_call', 'tool_result', 'synthesis']),
  text: z.string().max(MAX_REMOTE_LINE_CHARS),
});
export type RemoteStepLine = z.infer<typeof RemoteStepLine>;

/**
 * A remote agent's chain linked into the parent's, on the delegating step: where it is and a
 * bounded, redacted summary of its steps in the view the remote gave the parent. Linked, not
 * copied: the parent's chain stays the parent's. `refused`: the task carried a chain artifact the
 * parent could not read (the answer is kept).
 */
export const RemoteChain = z.object({
  runId: z.string().max(1_000).optional(),
  url: z.string().max(2_000).optional(),
  view: ViewerRole.optional(),
  totalSteps: z.number().int().nonnegative(),
  steps: z.array(RemoteStepLine).max(MAX_REMOTE_CHAIN_LINES),
  /** The remote cut its artifact, or the parent kept fewer lines than it sent. */
  truncated: z.boolean().optional(),
  refused: z.string().max(500).optional(),
  /** Set by a view that does not show the lines (a narrower view than the remote gave them in): why. */
  withheld: z.string().max(200).optional(),
});
export type RemoteChain = z.infer<typeof RemoteChain>;

/** What each remote step line is called where a person reads it (CLI, markdown, viewer). */
export const REMOTE_STEP_LABELS: Readonly<Record<RemoteStepLine['type'], string>> = {
  thinking: 'Thought',
  tool_call: 'Action',
  tool_result: 'Observation',
  synthesis: 'Answer',
};

/** The line above a remote agent's steps: whose they are, in which view, how many, and where the whole chain is. */
export function remoteChainHeading(agentName: string, chain: RemoteChain): string {
  if (chain.refused) return `${agentName}’s chain (remote) was not linked: ${chain.refused}`;
  if (chain.withheld)
    return `${agentName}’s steps (remote, ${chain.totalSteps}) are not shown here: ${chain.withheld}${chain.url ? `; whole chain: ${chain.url}` : ''}`;
  const shown = chain.truncated
    ? `the first ${chain.steps.length} of ${chain.totalSteps} steps`
    : `${chain.totalSteps} step${chain.totalSteps === 1 ? '' : 's'}`;
  return `${agentName}’s steps (remote, ${chain.view ?? 'its'} view, ${shown})${chain.url ? `; whole chain: ${chain.url}` : ''}`;
}
