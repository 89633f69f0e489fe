import { z } from 'zod';
import { BudgetPause } from './budget-pause';
import { AnswerGrounding, MAX_CHECKED_CLAIMS, MAX_CLAIM_TEXT_CHARS } from '../chain/answer-grounding';
import { Confidence } from '../model/reasoning-settings';
import { AgentRef } from '../agents/agent-definition';
import { ApprovalRecord } from '../approval/approval';
import { Plan, PlanProgress } from '../planning/plan';
import { SubAgentRun } from '../agents/sub-agent';
import { DelegatedSpend } from '../agents/delegated-spend';
import { ReasoningChain } from '../chain/chain';
import { TerminationReason } from './termination';
import { TokenUsage } from '../model/usage';
import { ModelTimes } from '../chain/model-times';

export const AgentResult = z.object({
  success: z.boolean(),
  finalAnswer: z.string(),
  terminationReason: TerminationReason,
  /**
   * What stands behind `finalAnswer` (docs/concepts.md, "Grounded answers"); absent in results
   * recorded before answers were judged. Only `grounded` with `success` is a plain final answer.
   */
  grounding: AnswerGrounding.optional(),
  /** Step ids of the observations behind the answer: the synthesis step's `sources`. */
  answerSources: z.array(z.string()).optional(),
  /** The answer's claims no observation supports and the run was not given, when not grounded (its synthesis's `claimCheck`). */
  unsupportedClaims: z.array(z.string().max(MAX_CLAIM_TEXT_CHARS)).max(MAX_CHECKED_CLAIMS).optional(),
  /** The answer's claims an observation says otherwise of, when `contradicted`. */
  contradictedClaims: z.array(z.string().max(MAX_CLAIM_TEXT_CHARS)).max(MAX_CHECKED_CLAIMS).optional(),
  /** The answer's claims nothing could check, when not grounded. */
  uncheckedClaims: z.array(z.string().max(MAX_CLAIM_TEXT_CHARS)).max(MAX_CHECKED_CLAIMS).optional(),
  /** How sure the model said it was of the answer, when it said. */
  confidence: Confidence.optional(),
  /** The final answer as the value the run's `outputSchema` checked (its JSON text is `finalAnswer`). */
  output: z.unknown().optional(),
  chain: ReasoningChain,
  usage: TokenUsage,
  costUsd: z.number().nonnegative(),
  iterations: z.number().int().nonnegative(),
  /** The run's limit, so an ended run's status can be rebuilt from its result alone. */
  maxIterations: z.number().int().positive().optional(),
  modelCalls: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  /** Replies the run could not act on (text ReAct format errors); each went back to the model. */
  formatErrors: z.number().int().nonnegative().default(0),
  /** Repeated read-only calls answered from an earlier observation, without an activity. */
  cachedCalls: z.number().int().nonnegative().default(0),
  /** How many times the run continued as new to keep its history small. */
  continuations: z.number().int().nonnegative().default(0),
  /** Workflow time from start to end, so it survives replay and worker restarts. */
  executionTimeMs: z.number().nonnegative(),
  /**
   * The planner's time and the loop's reasoning time per iteration, added from the model
   * activities' own durations over every Temporal run (as ChainSummary.time reads them from a
   * whole chain). Absent in results recorded before they were kept.
   */
  times: ModelTimes.optional(),
  /** Set when `terminationReason` is `error`. */
  error: z.string().optional(),
  /** The part of `usage` and `costUsd` spent by sub-agents (their own children included). */
  delegated: DelegatedSpend.optional(),
  /** The plan at the end, when planning was on. */
  plan: Plan.optional(),
  /** The named, versioned definition the run followed, as its chain records it. */
  agent: AgentRef.optional(),
});
export type AgentResult = z.infer<typeof AgentResult>;

/** What the `status` query returns: small enough to poll. */
export const AgentStatus = z.object({
  status: ReasoningChain.shape.status,
  iteration: z.number().int().nonnegative(),
  maxIterations: z.number().int().positive(),
  steps: z.number().int().nonnegative(),
  usage: TokenUsage,
  costUsd: z.number().nonnegative(),
  model: z.string(),
  lastStep: z.string().optional(),
  tokenBudget: z.number().optional(),
  costBudgetUsd: z.number().optional(),
  /** Set once a `cancel` signal arrived, with its reason. */
  cancelRequested: z.string().optional(),
  /** A budget the run paused at (`onBudget: 'ask'`), waiting for the `raiseBudget` update. */
  budgetPause: BudgetPause.optional(),
  /** What the run waits for, e.g. a person's answer to "continue?" after a stall. */
  waitingFor: z.string().optional(),
  continuations: z.number().int().nonnegative().default(0),
  /** Tool calls waiting for a person's decision (the `approveToolCall` update). */
  pendingApprovals: z.array(ApprovalRecord).default([]),
  /** The question the agent asked a person, waiting for the `answer` update. */
  openQuestion: z
    .object({ callId: z.string(), question: z.string(), askedAt: z.string(), expiresAt: z.string() })
    .optional(),
  /** Steering instructions received, not yet read by the model. */
  steeringQueued: z.number().int().nonnegative().optional(),
  /** The plan's tasks and progress, when planning is on. */
  plan: PlanProgress.optional(),
  /** Child runs, running and ended; `pendingApprovals` also lists theirs (and their children's). */
  subAgents: z.array(SubAgentRun).default([]),
  /** Planning and reasoning time so far, as AgentResult.times; absent from runs that kept none. */
  times: ModelTimes.optional(),
});
export type AgentStatus = z.infer<typeof AgentStatus>;
