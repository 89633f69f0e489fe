import type { ModelTool } from '../domain';
import type { Move } from './move';
import { OFFLINE_MARK } from './offline-summary';
import type { RequestView } from './read-request';

/** The offline model's use of the branching tool: the call that starts branches, or the chosen answer once they came back. */
export type BranchMove = { kind: 'act'; move: Move } | { kind: 'answer'; answer: string };

/** How the branching call's result gives the winner's answer (workflows/branching/explore-branches.ts). */
const CHOSEN_ANSWER = /^Its answer: ([\s\S]*?)\nThe other branches: /m;

/**
 * Offered the branching tool before any call, with two or more tools that fit the task: one
 * branch per tool (as many as the tool allows), each told to start with its tool. Once a
 * branching call came back with a winner, its answer is the run's. Undefined: the other rules go on.
 */
export function branchMove(view: RequestView, relevant: readonly ModelTool[]): BranchMove | undefined {
  const tool = view.control.branch;
  if (!tool) return undefined;
  const chosen = view.calls.find((c) => c.name === tool && c.result && !c.result.isError);
  if (chosen)
    return { kind: 'answer', answer: CHOSEN_ANSWER.exec(chosen.result!.content)?.[1] ?? chosen.result!.content };
  if (view.calls.length > 0 || relevant.length < 2) return undefined;
  const tried = relevant.slice(0, view.maxBranches);
  const approaches = tried.map((t) => ({ label: t.name, instructions: `Start with the ${t.name} tool.` }));
  return {
    kind: 'act',
    move: {
      text: `${OFFLINE_MARK} ${tried.length} tools fit the task; trying ${tried.length} approaches at once, one starting with each: ${tried.map((t) => t.name).join(', ')}.`,
      calls: [{ name: tool, input: { approaches, criteria: 'The answer backed by the most tool results.' } }],
    },
  };
}
