import { z } from 'zod';
import { FallbackModel } from '../model/model-settings';

/**
 * Agent-driven branching (seed 002 #39): with `AgentInput.branching` set, the model may call one
 * injected tool to try two to four approaches at once, each as a child run of the same agent,
 * and go on with the one that wins. Settings, bounds and the per-branch marks; the workflow side
 * lives in src/workflows/branching.
 */

export const DEFAULT_BRANCH_TOOL = 'explore_branches';
/** The most approaches one call may try (and the highest `maxBranches`). */
export const MAX_BRANCHES = 4;
export const MAX_BRANCH_LABEL_CHARS = 80;
export const MAX_BRANCH_INSTRUCTIONS_CHARS = 2_000;
export const MAX_BRANCH_CRITERIA_CHARS = 500;
/** What a branch is told of the parent's work so far: its newest observations, at most this much. */
export const MAX_BRANCH_CONTEXT_CHARS = 6_000;
/** How much of each finished branch's answer the judge reads. */
export const MAX_JUDGED_ANSWER_CHARS = 3_000;
/** How much of a losing branch's answer goes back to the model, after the winner's whole answer. */
export const MAX_LOSER_ANSWER_CHARS = 300;

/** How the branching tool's description starts, whatever its settings; the offline model recognises the tool by it. */
export const BRANCHING_TOOL_LEAD = 'Explore different approaches to the task at once';

/** `AgentInput.branching`: off when absent. */
export const BranchingSettings = z
  .object({
    /** The injected tool's name. */
    toolName: z.string().min(1).default(DEFAULT_BRANCH_TOOL),
    /** The most approaches one call may try. */
    maxBranches: z.number().int().min(2).max(MAX_BRANCHES).default(3),
    /**
     * `judge`: every branch runs to its end, then one model call picks the best finished answer
     * by the call's criteria (no call when one or none finished); `first_success`: the first
     * branch to finish wins and the others are cancelled.
     */
    choose: z.enum(['judge', 'first_success']).default('judge'),
    /** The model that judges; the run's own when absent. Subject to `allowedModels`. */
    judge: FallbackModel.optional(),
    /** The share of what the run has left (tokens, cost) all branches of a call may spend together, split equally. */
    budgetShare: z.number().min(0.1).max(1).default(0.5),
    /** Each branch's most iterations (also capped by the run's iterations left). */
    maxIterationsPerBranch: z.number().int().positive().max(100).default(10),
  })
  .strict();
export type BranchingSettings = z.infer<typeof BranchingSettings>;

/** A child run that is one branch of a call (SubAgentRun.branch): which call, which approach, and whether it won. */
export const BranchMark = z.object({
  /** The tool_use id of the branching call. */
  group: z.string(),
  /** 1-based, in the order the model listed the approaches. */
  index: z.number().int().min(1).max(MAX_BRANCHES),
  label: z.string().max(MAX_BRANCH_LABEL_CHARS),
  /** Set on the chosen branch once the call has chosen. */
  winner: z.boolean().optional(),
});
export type BranchMark = z.infer<typeof BranchMark>;

/** "branch 2 “cheapest first” ★ chosen": how every view names a branch. */
export function branchTitle(mark: BranchMark): string {
  return `branch ${mark.index} “${mark.label}”${mark.winner ? ' ★ chosen' : ''}`;
}

/** A child run's name in lists and trees: its agent, and which branch when it is one ("geo · branch 2 “index” ★ chosen"). */
export function subAgentTitle(run: { agentName: string; branch?: BranchMark | undefined }): string {
  return run.branch ? `${run.agentName} · ${branchTitle(run.branch)}` : run.agentName;
}
