import { UsedDecisions } from '../approval/used-decisions';
import { z } from 'zod';
import { ChainArchive, ReasoningChain } from '../chain/chain';
import { ModelMessage } from '../model/model-wire';
import { Plan } from '../planning/plan';
import { DelegatedSpend } from '../agents/delegated-spend';
import { SteeringInstruction } from '../identity/people';
import { NarrowedVisibility, ToolSpec } from '../tools/tool-spec';
import { TokenUsage } from '../model/usage';
import { MAX_SHAPE_FEATURES } from '../text/similarity';
import { ModelTimeTally } from '../chain/model-times';

/** An earlier identical call to a read-only tool, whose observation a repeat reuses. */
export const CachedObservation = z.object({
  key: z.string(),
  stepId: z.string(),
  /** What the model read. */
  content: z.string(),
  isError: z.boolean(),
  /** What the chain showed, so a reuse shows the same value (an object stays an object). */
  result: z.unknown(),
  error: z.string().optional(),
  truncated: z.boolean().optional(),
  summarised: z.boolean().optional(),
  /** The tool narrowed the result it ran for, so a reuse is shown no wider. */
  narrowed: NarrowedVisibility.optional(),
});
export type CachedObservation = z.infer<typeof CachedObservation>;

/** The most turns the cycle check looks back over (AgentInput.stallWindow's maximum). */
export const MAX_RECENT_TURNS = 20;
/** Failed calls remembered, so an identical call is pointed at its failure instead of running again. */
export const MAX_FAILED_CALLS = 32;
/** Characters of a failure's error kept with it. */
export const MAX_FAILED_CALL_ERROR_CHARS = 300;

/** A tool call that failed: an identical one (same tool, same arguments) is not run again. */
export const FailedCall = z.object({
  key: z.string(),
  /** The step of the failed result. */
  stepId: z.string(),
  stepNumber: z.number().int().positive(),
  error: z.string().max(MAX_FAILED_CALL_ERROR_CHARS),
});
export type FailedCall = z.infer<typeof FailedCall>;

/** A turn's calls as a similarity fingerprint: at most MAX_SHAPE_FEATURES short hashes (its features and role features). */
const TurnShape = z.array(z.string().max(16)).max(MAX_SHAPE_FEATURES);

/** Consecutive repeats seen so far, and whether the agent was already told it is repeating itself. */
export const StallState = z.object({
  lastCallKey: z.string().optional(),
  sameCallsInRow: z.number().int().nonnegative(),
  formatErrorsInRow: z.number().int().nonnegative(),
  /** Told once about repeated calls. */
  warned: z.boolean(),
  /** Told once about unreadable replies (a separate warning). */
  formatWarned: z.boolean().default(false),
  /** Keys of the latest turns' calls (compared after normalising), oldest first: at most MAX_RECENT_TURNS, for cycles. */
  recentTurns: z.array(z.string()).max(MAX_RECENT_TURNS).default([]),
  /** Told once about a cycle (A-B-A-B). */
  cycleWarned: z.boolean().default(false),
  /** Fingerprint of the last thought before a tool call (thoughtValidation's repeat check). */
  lastThoughtKey: z.string().optional(),
  /**
   * The last turn's calls as a similarity fingerprint (text/similarity.ts), when calls are compared
   * by similarity (`similarCallThreshold` below 1). Absent in states carried before: keys compare then.
   */
  lastTurnShape: TurnShape.optional(),
  /** Fingerprints of the latest turns, aligned with the end of `recentTurns` (possibly shorter), for cycles of similar turns. */
  recentShapes: z.array(TurnShape).max(MAX_RECENT_TURNS).optional(),
});
export type StallState = z.infer<typeof StallState>;

/** Version of the carried run state's field list; a change of its shape bumps it, and old versions keep parsing. */
export const RUN_STATE_SCHEMA_VERSION = 1;

/**
 * The loop's memory, as one versioned field list: RunState restores from it and writes it, and
 * ContinuedState carries it. The budget ledger, counters, the conversation and the cache of
 * read-only observations; what belongs to one Temporal run only (its iteration count, running
 * sub-agents' reservations) is not here.
 */
export const RunStateData = z.object({
  /** Absent in states carried before the field list was versioned: those are version 1. */
  schemaVersion: z.literal(RUN_STATE_SCHEMA_VERSION).default(RUN_STATE_SCHEMA_VERSION),
  messages: z.array(ModelMessage),
  usage: TokenUsage,
  costUsd: z.number().nonnegative(),
  iteration: z.number().int().nonnegative(),
  modelCalls: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  formatErrors: z.number().int().nonnegative(),
  cachedCalls: z.number().int().nonnegative(),
  lastModel: z.string(),
  /** Workflow time (epoch ms) when the first run started; the run's timeout counts from here. */
  startedAtMs: z.number(),
  /** A `cancel` signal received before the handover, with its reason. */
  cancelRequested: z.string().optional(),
  /** Whole old turns already removed from `messages` to fit the context window. */
  droppedTurns: z.number().int().nonnegative().default(0),
  readOnlyCache: z.array(CachedObservation),
  stall: StallState,
  /** The latest failed calls, oldest first, at most MAX_FAILED_CALLS. */
  failedCalls: z.array(FailedCall).max(MAX_FAILED_CALLS).default([]),
  /** Tokens leased from the tenant's hourly quota and not yet spent (may dip below 0 until the next lease). */
  tenant: z
    .object({
      allowance: z.number(),
      unlimited: z.boolean(),
      /** Calls leased from the tenant's per-minute window and not yet made (only with `callsPerMinute`). */
      calls: z.number().optional(),
      /** Workflow time (epoch ms) after which the held calls may no longer be used. */
      callsExpireAt: z.number().optional(),
      /** USD leased from the tenant's hourly spend and not yet spent, below 0 when overspent (only with `costPerHourUsd`). */
      usd: z.number().optional(),
    })
    .default({ allowance: 0, unlimited: false }),
  /** Iteration of the last reflection, so the cadence continues. */
  lastReflectionAt: z.number().int().nonnegative().default(0),
  /** What sub-agents spent so far (already in `usage` and `costUsd`). */
  delegated: DelegatedSpend.optional(),
  /** Ids of the earlier Temporal runs of this agent run, oldest first: at most the last 100 (see earlierRunsDropped). */
  previousRunIds: z.array(z.string()),
  /** Earlier Temporal runs whose ids were dropped from `previousRunIds` to keep the carried state bounded. */
  earlierRunsDropped: z.number().int().nonnegative().default(0),
  /**
   * The planner's and the loop's model time so far, over every Temporal run (the carried chain is
   * only a tail). Absent in states carried before it was kept: the count starts at the handover.
   */
  times: ModelTimeTally.optional(),
});
export type RunStateData = z.infer<typeof RunStateData>;

/** A conversation a model call sent: its first `messages` messages, whose whole hash is `hash`. */
export const SentConversation = z.object({ messages: z.number().int().positive(), hash: z.string().max(64) });
export type SentConversation = z.infer<typeof SentConversation>;

/**
 * Everything a run carries into its next Temporal run when it continues as new: the run state,
 * the chain's latest steps (large old observations shortened; the full text stays in the earlier
 * run's history), the steps left behind this time, the tool set and undelivered steering.
 * Bounded in size by construction.
 */
export const ContinuedState = RunStateData.extend({
  chain: ReasoningChain,
  /** The tool set the run started with; a run keeps it across handovers and deploys. */
  tools: z.array(ToolSpec),
  /** Steering instructions received but not yet delivered to the model. */
  steering: z.array(SteeringInstruction).default([]),
  /** Instructions refused since the last delivery (the queue was full); the next thought reports them. */
  steeringRefused: z.number().int().min(0).optional(),
  /** Signed decisions accepted within the signature age limit (used-decisions.ts), so none is used twice across a handover. */
  usedDecisions: UsedDecisions.optional(),
  /** The plan as it stood at the handover. */
  plan: Plan.optional(),
  /**
   * The steps this handover left behind, for readers of the chain (AgentClient.chain reads them
   * from the continue-as-new event, with no worker and no replay); the next run drops them.
   */
  archive: ChainArchive.optional(),
  /**
   * The conversation the last model call sent, as the first `messages` carried messages, with its
   * whole hash: the worker that made the call keeps it for this workflow, so the next Temporal
   * run's first call names it instead of recording it again. Checked against the messages.
   */
  sentConversation: SentConversation.optional(),
});
export type ContinuedState = z.infer<typeof ContinuedState>;
