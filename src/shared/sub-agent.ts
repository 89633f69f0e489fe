import { z } from 'zod';
import { AnswerGrounding } from './answer-grounding';
import { ModelOverride } from './model-settings';
import { TerminationReason } from './termination';
import { TokenUsage } from './usage';

/** The most a sub-agent may spend; each is further capped by what its parent has left. */
export const SubAgentLimits = z.object({
  maxIterations: z.number().int().positive().optional(),
  tokenBudget: z.number().int().positive().optional(),
  costBudgetUsd: z.number().positive().optional(),
  runTimeoutMs: z.number().int().positive().optional(),
});
export type SubAgentLimits = z.infer<typeof SubAgentLimits>;

/**
 * An agent another agent may call as a tool (type `sub_agent`). Calling it starts a child
 * `agentWorkflow` with the task the caller writes; its answer is the call's result.
 */
export const SubAgentDefinition = z.object({
  /** What the calling model reads when choosing it. */
  description: z.string().min(1),
  /** The child's own instructions (its system prompt). */
  instructions: z.string().optional(),
  /** The child's model; the parent's when absent. */
  model: ModelOverride.optional(),
  /** Registered tools and catalogue agents the child may call; absent means all but its ancestors. */
  tools: z.array(z.string()).optional(),
  limits: SubAgentLimits.default({}),
});
export type SubAgentDefinition = z.infer<typeof SubAgentDefinition>;

/** One agent on the way down from the root: who delegated to whom. */
export const DelegationLink = z.object({ agentName: z.string(), workflowId: z.string() });
export type DelegationLink = z.infer<typeof DelegationLink>;

/** Set by a parent on its child's input; never by callers. */
export const Delegation = z.object({
  /** The root first, the direct parent last. */
  path: z.array(DelegationLink).min(1),
  maxDepth: z.number().int().nonnegative(),
});
export type Delegation = z.infer<typeof Delegation>;

export const SubAgentRunStatus = z.enum(['running', 'completed', 'failed', 'cancelled', 'refused']);
export type SubAgentRunStatus = z.infer<typeof SubAgentRunStatus>;

/** A sub-agent's sub-budget: what was carved from the parent for it. */
export const SubBudget = z.object({
  maxIterations: z.number().int().positive(),
  tokenBudget: z.number().int().positive().optional(),
  costBudgetUsd: z.number().positive().optional(),
  runTimeoutMs: z.number().int().positive().optional(),
});
export type SubBudget = z.infer<typeof SubBudget>;

/** A child run as its parent's status and chain show it; the link to drill into its chain. */
export const SubAgentRun = z.object({
  /** The tool_use id of the delegating call. */
  callId: z.string(),
  agentName: z.string(),
  workflowId: z.string(),
  /** Set once the child started. */
  runId: z.string().optional(),
  status: SubAgentRunStatus,
  budget: SubBudget,
  /** The child's spend, its own children included; set when it ended. */
  usage: TokenUsage.optional(),
  costUsd: z.number().nonnegative().optional(),
  iterations: z.number().int().nonnegative().optional(),
  terminationReason: TerminationReason.optional(),
  /** Steps in the child's chain when it ended. */
  steps: z.number().int().nonnegative().optional(),
  /** What stands behind the child's answer, set when it ended (absent in older records). */
  grounding: AnswerGrounding.optional(),
});
export type SubAgentRun = z.infer<typeof SubAgentRun>;
