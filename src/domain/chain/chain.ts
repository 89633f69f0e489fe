import { z } from 'zod';
import { AnswerGrounding, ClaimCheck } from './answer-grounding';
import { Confidence } from '../model/reasoning-settings';
import { AgentRef } from '../agents/agent-definition';
import { ApprovalRecord } from '../approval/approval';
import { Plan } from '../planning/plan';
import { CacheHit, FallbackDecision, GoalCheckVerdict, ObserverVerdict, TaskChoice } from '../planning/plan-verdicts';
import { SubAgentRun } from '../agents/sub-agent';
import { TerminationReason } from '../run/termination';
import { TokenUsage } from '../model/usage';
import { MAX_ROUTED_CHARS } from '../model/model-tier';

/** Bumped whenever a stored chain would no longer parse; old fixtures must keep parsing. */
export const CHAIN_SCHEMA_VERSION = 1;

export const VisibilityLevel = z.enum(['full', 'summary', 'hidden']);
export type VisibilityLevel = z.infer<typeof VisibilityLevel>;

export const Visibility = z.object({
  level: VisibilityLevel,
  /** Plain-language line for people who should not see the raw step. */
  summary: z.string().optional(),
  /** The tool narrowed its own result step below the configured level (ToolContext.narrowVisibility). */
  narrowedBy: z.literal('tool').optional(),
});
export type Visibility = z.infer<typeof Visibility>;

/** The LLM is a tool like any other (DESIGN: the LLM is a tool): its calls are `llm` tool steps. */
/** `guardrail`: a check point of the run's guardrails (docs/guardrails.md), never a tool the model called. */
export const ToolType = z.enum([
  'llm',
  'external',
  'skill',
  'sub_agent',
  'database',
  'file_system',
  'custom',
  'guardrail',
]);
export type ToolType = z.infer<typeof ToolType>;

export const ToolCall = z.object({
  toolType: ToolType,
  toolName: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** Links the call to its result; for model-requested tools it is the model's tool_use id. */
  correlationId: z.string(),
  /** Fields of the arguments and result that views other than the auditor's redact. */
  sensitiveFields: z.array(z.string()).optional(),
  /** A `sub_agent` call: the child run it starts (its id is derived from this run and step). */
  delegatedTo: z.object({ agentName: z.string(), workflowId: z.string() }).optional(),
  /** The workflow chose the model of this `llm` tool call (it named none): why, e.g. the plan task's complexity. */
  routed: z.string().max(MAX_ROUTED_CHARS).optional(),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const ToolResult = z.object({
  correlationId: z.string(),
  success: z.boolean(),
  result: z.unknown(),
  error: z.string().optional(),
  durationMs: z.number().nonnegative(),
  /** True when the result was cut to the run's size limit. */
  truncated: z.boolean().optional(),
  /** True when a model call condensed an oversized result; `result` is the summary. */
  summarised: z.boolean().optional(),
  /** Set on a repeated read-only call: the step whose observation was reused, with no new activity. */
  cachedFrom: z.string().optional(),
  /**
   * How many times the tool ran for this call (retries included); set when known. `durationMs`
   * then covers every attempt and the waits between them.
   */
  attempts: z.number().int().positive().optional(),
  /**
   * For a call cut short by cancellation or timeout: whether it ran (`done`), stopped, may have
   * (`unknown`), or never started (`not_run`, e.g. it was still waiting for approval).
   */
  outcome: z.enum(['done', 'cancelled', 'unknown', 'not_run']).optional(),
  /** A `sub_agent` call's child run: where to read its chain, what it spent, how it ended. */
  subAgent: SubAgentRun.optional(),
});
export type ToolResult = z.infer<typeof ToolResult>;

export const Synthesis = z.object({
  /** Step ids of the observations the answer draws on (see AnswerGrounding). */
  sources: z.array(z.string()),
  conclusion: z.string(),
  /** Absent in chains recorded before answers were judged; views then show them as before. */
  grounding: AnswerGrounding.optional(),
  /** How the run ended, so a view can call a non-success ending's answer partial; absent in older chains. */
  terminationReason: TerminationReason.optional(),
  /** How sure the model said it is of the answer, 0–1 (given to `finish`, or a `Confidence:` line). */
  confidence: Confidence.optional(),
  /** Each checkable claim of the answer and the observation that supports it (absent in older chains, or with no claim to check). */
  claimCheck: ClaimCheck.optional(),
});
export type Synthesis = z.infer<typeof Synthesis>;

/** Why the loop itself added a thought (ThinkingStep.purpose). */
export const NotePurpose = z.enum([
  'plan',
  'reflection',
  'delegation_blocked',
  'context',
  'memory',
  'task_choice',
  'observation',
  'fallback',
  'goal_check',
  /** A wait for the tenant's per-minute limit (calls or tokens), with when the run continues. */
  'rate_limit',
  /** Whole old turns left the conversation sent to the model: the summary that took their place, or why none did. */
  'compaction',
  /** Which branch of an `explore_branches` call the run goes on with, and why. */
  'branch_choice',
]);
export type NotePurpose = z.infer<typeof NotePurpose>;

const StepBase = z.object({
  stepId: z.string(),
  stepNumber: z.number().int().positive(),
  /** ISO-8601 from workflow time, so replay produces the same chain. */
  timestamp: z.string(),
  iteration: z.number().int().nonnegative(),
  visibility: Visibility,
  /** Set on model-call steps only. */
  model: z.string().optional(),
  usage: TokenUsage.optional(),
  costUsd: z.number().nonnegative().optional(),
  /** Set on steps a person caused: a steering instruction, an answer, an approval decision, a cancel. */
  fromPerson: z
    .object({ kind: z.enum(['steer', 'answer', 'approval', 'cancel', 'budget']), by: z.string() })
    .optional(),
  /**
   * Calls the model asked for in one turn and that ran concurrently: `group` is the step number
   * of the turn's first call, which they share; `index` counts from 1 within the turn.
   */
  parallel: z
    .object({
      group: z.number().int().positive(),
      index: z.number().int().positive(),
      size: z.number().int().positive(),
    })
    .optional(),
  /** Set on a result (a tool's, a model's) or plan reused from the cache: which run stored it and how old it is. */
  cacheHit: CacheHit.optional(),
});

export const ThinkingStep = StepBase.extend({
  type: z.literal('thinking'),
  thought: z.string(),
  /**
   * Set on thoughts the loop itself adds: a plan (with its snapshot), a reflection, a blocked
   * delegation, the run's context, learnings read from memory, the choice of the next task, an
   * observer's reading, a fallback decision, a goal-completion check.
   */
  purpose: NotePurpose.optional(),
  plan: Plan.optional(),
  taskChoice: TaskChoice.optional(),
  observation: ObserverVerdict.optional(),
  fallback: FallbackDecision.optional(),
  goalCheck: GoalCheckVerdict.optional(),
  /** How sure the model said it is, 0–1 (`askConfidence`: a `Confidence:` line with the thought). */
  confidence: Confidence.optional(),
});
export const ToolCallStep = StepBase.extend({ type: z.literal('tool_call'), toolCall: ToolCall });
export const ToolResultStep = StepBase.extend({ type: z.literal('tool_result'), toolResult: ToolResult });
export const SynthesisStep = StepBase.extend({ type: z.literal('synthesis'), synthesis: Synthesis });

export const ReasoningStep = z.discriminatedUnion('type', [ThinkingStep, ToolCallStep, ToolResultStep, SynthesisStep]);
export type ReasoningStep = z.infer<typeof ReasoningStep>;
export type StepType = ReasoningStep['type'];

export const ChainStatus = z.enum(['thinking', 'tool_calling', 'waiting', 'completed', 'failed']);
export type ChainStatus = z.infer<typeof ChainStatus>;

/**
 * Where a long run's earliest steps are, once its chain no longer carries them (continue-as-new
 * keeps a bounded tail): steps 1…`throughStep` were left behind by Temporal run `runId` of this
 * workflow. Its continue-as-new input holds the ones it left (`archive`, with the next pointer
 * back) and its own `chain` query, answered even after it closed, still has them. `lastReactCall`
 * is the highest text-protocol call number among the steps left behind, so numbering never repeats.
 */
export const ChainEarlier = z.object({
  runId: z.string(),
  throughStep: z.number().int().nonnegative(),
  lastReactCall: z.number().int().nonnegative().optional(),
});
export type ChainEarlier = z.infer<typeof ChainEarlier>;

/** The steps one handover left behind, after `earlier.throughStep` (or the first step), in order. */
export const ChainArchive = z.object({ steps: z.array(ReasoningStep), earlier: ChainEarlier.optional() });
export type ChainArchive = z.infer<typeof ChainArchive>;

export const ReasoningChain = z.object({
  schemaVersion: z.literal(CHAIN_SCHEMA_VERSION),
  /** The workflow id: one chain per agent run. */
  chainId: z.string(),
  agentName: z.string(),
  task: z.string(),
  startedAt: z.string(),
  completedAt: z.string().optional(),
  status: ChainStatus,
  steps: z.array(ReasoningStep),
  /** Every call that needed a person's decision, pending or decided, oldest first. */
  approvals: z.array(ApprovalRecord).optional(),
  /** The run's plan as it stands, when planning is on. */
  plan: Plan.optional(),
  /** Child runs this run delegated to, in the order they were started. */
  subAgents: z.array(SubAgentRun).optional(),
  /** Set when a long run's chain no longer carries its first steps: where they are. */
  earlier: ChainEarlier.optional(),
  /**
   * Set by a reader, never by the run: steps 1…`throughStep` could not be read, because Temporal
   * run `runId`, which held them, is no longer on the server (past the namespace's retention, or
   * deleted). The steps after them are all there.
   */
  unavailable: z.object({ runId: z.string(), throughStep: z.number().int().nonnegative() }).optional(),
  /** Who started the run, with their roles (left out when none) and tenant (the input's `caller`); absent in runs recorded before it was kept here. */
  caller: z
    .object({ id: z.string(), roles: z.array(z.string()).default([]), tenant: z.string().optional() })
    .optional(),
  /** The named, versioned definition the run followed (its id, version and where it came from); absent for a run without one. */
  agent: AgentRef.optional(),
  /** Set on a fork: the run and step it started from (its first steps are that run's, unchanged). */
  forkedFrom: z
    .object({
      workflowId: z.string(),
      atStep: z.number().int().nonnegative(),
      keptThroughStep: z.number().int().nonnegative(),
    })
    .optional(),
  /**
   * Set on a view: which role's view this is, how many steps it leaves out, and how many steps the
   * organisation's visibility policy showed less of than the role would (left out or summarised;
   * absent when none), so a reader of a sub-agent's chain can say the policy narrowed it.
   */
  view: z
    .object({
      role: z.enum(['end_user', 'developer', 'auditor']),
      hiddenSteps: z.number().int().nonnegative(),
      narrowed: z.number().int().nonnegative().optional(),
    })
    .optional(),
});
export type ReasoningChain = z.infer<typeof ReasoningChain>;
