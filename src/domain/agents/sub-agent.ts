import { z } from 'zod';
import { AnswerGrounding, MAX_CHECKED_CLAIMS, MAX_CLAIM_TEXT_CHARS } from '../chain/answer-grounding';
import { ModelOverride } from '../model/model-settings';
import { TerminationReason } from '../run/termination';
import { TokenUsage } from '../model/usage';
import { RemoteChain } from './remote-chain';
import { BranchMark } from './branching';

/** The most a sub-agent may spend; each is further capped by what its parent has left. */
export const SubAgentLimits = z.object({
  maxIterations: z.number().int().positive().optional(),
  tokenBudget: z.number().int().positive().optional(),
  costBudgetUsd: z.number().positive().optional(),
  runTimeoutMs: z.number().int().positive().optional(),
});
export type SubAgentLimits = z.infer<typeof SubAgentLimits>;

/** The longest agent card URL a definition may name. */
export const MAX_A2A_CARD_URL_CHARS = 2_048;

/** An absolute http(s) URL without spaces or credentials; the worker's allow-list decides the rest. */
const isCardUrl = (text: string): boolean => /^https?:\/\/[^\s/@?#]+(?:[/?#]\S*)?$/i.test(text);

/** A remote agent reached over A2A: its card's URL. The worker's allow-list decides whether it may be called. */
export const RemoteAgentRef = z.object({
  card: z
    .string()
    .min(1)
    .max(MAX_A2A_CARD_URL_CHARS)
    .refine(isCardUrl, 'must be an absolute http or https URL without credentials'),
});
export type RemoteAgentRef = z.infer<typeof RemoteAgentRef>;

/**
 * An agent another agent may call as a tool (type `sub_agent`). Calling it starts a child
 * `agentWorkflow` with the task the caller writes; its answer is the call's result. With `a2a`,
 * the call goes to a remote A2A agent instead (two activities, docs/a2a-remote-agents.md), and
 * `instructions`, `model` and `tools` do not apply.
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
  /** A remote A2A agent to call instead of a child run. */
  a2a: RemoteAgentRef.optional(),
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

/** A remote agent's task as the parent records it: which card, which task, its last known A2A state. */
export const RemoteTaskRef = z.object({
  card: z.string(),
  taskId: z.string().optional(),
  contextId: z.string().optional(),
  /** The A2A state in its wire form (`working`, `completed`, `input-required`...). */
  state: z.string().optional(),
  /** The remote's chain when its task carried one (a Thoughtline server's `reasoning-chain` artifact): linked, bounded, redacted. */
  chain: RemoteChain.optional(),
});
export type RemoteTaskRef = z.infer<typeof RemoteTaskRef>;

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
  /** The child's answer's claims at fault (contradicted, unsupported or unchecked), when not grounded: they ground nothing for the parent. */
  unsupportedClaims: z.array(z.string().max(MAX_CLAIM_TEXT_CHARS)).max(MAX_CHECKED_CLAIMS).optional(),
  /** Set for a remote A2A agent: its card, and its task once the message was sent. */
  remote: RemoteTaskRef.optional(),
  /** Set when the child is one branch of an `explore_branches` call (AgentInput.branching). */
  branch: BranchMark.optional(),
});
export type SubAgentRun = z.infer<typeof SubAgentRun>;
