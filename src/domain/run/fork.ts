import { z } from 'zod';
import { ReasoningStep, ToolType } from '../chain/chain';
import { ModelMessage } from '../model/model-wire';
import { MAX_CARRIED_BYTES, utf8Bytes } from './payload-size';
import { SteeringInstruction } from '../identity/people';
import { Plan } from '../planning/plan';
import { TokenUsage } from '../model/usage';

/** Where a fork came from: the run, and the step the caller named. */
export const ForkOrigin = z.object({
  workflowId: z.string().min(1),
  /** The step the caller asked to fork at; the fork keeps every step up to its next model call. */
  atStep: z.number().int().nonnegative(),
  /** The last step the fork kept: the one before the model call it makes again. */
  keptThroughStep: z.number().int().nonnegative(),
});
export type ForkOrigin = z.infer<typeof ForkOrigin>;

/**
 * A call after the fork point that may change the world, so the fork may make it again: every
 * tool call that is not positively read-only (sub-agents included). It keeps its approval policy;
 * approvals given to the original are never carried over.
 */
export const ForkHazard = z.object({
  stepNumber: z.number().int().positive(),
  toolName: z.string(),
  toolType: ToolType,
  /** The policy the fork applies: `always`, `never` (also when the tool names none) or `rules`. */
  approval: z.string(),
  /** Why it is listed: not read-only, unknown to the original's tool set, or a sub-agent. */
  because: z.string(),
});
export type ForkHazard = z.infer<typeof ForkHazard>;

/**
 * What a fork starts from (`AgentInput.fork`): the original's steps up to the fork point, the
 * conversation its next model call was sent, the ledger and plan as they stood, and the
 * hazards. The fork is a new agent run: it checks its tools, tenant slot and approval rules
 * like any other. At most MAX_CARRIED_BYTES, so it fits one payload with room to spare.
 */
export const ForkStart = z
  .object({
    from: ForkOrigin,
    steps: z.array(ReasoningStep),
    messages: z.array(ModelMessage).min(1),
    ledger: z.object({
      usage: TokenUsage,
      costUsd: z.number().nonnegative(),
      /** Iterations the kept steps completed; the fork's next is one more. */
      iterations: z.number().int().nonnegative(),
      modelCalls: z.number().int().nonnegative(),
      toolCalls: z.number().int().nonnegative(),
    }),
    plan: Plan.optional(),
    /** Delivered before the fork's first model call, as a steering step. */
    steering: z.array(SteeringInstruction).max(10).default([]),
    hazards: z.array(ForkHazard).max(1_000).default([]),
    /** What the fork changes, in words, for its first step (e.g. `model claude-haiku-4-5`). */
    change: z.string().max(2_000).default(''),
    /**
     * Set when `messages` were rebuilt from an imported chain's steps, not read from the original's
     * history (an export carries no history): what such a conversation lacks, said in the fork's
     * first step. Absent on a fork of a run of Temporal.
     */
    rebuilt: z.string().max(2_000).optional(),
  })
  .refine((fork) => utf8Bytes(JSON.stringify(fork)) <= MAX_CARRIED_BYTES, {
    message: `A fork's starting state must be at most ${MAX_CARRIED_BYTES} bytes (the conversation and steps up to the fork point); fork an earlier step, or a run with smaller observations.`,
  });
export type ForkStart = z.infer<typeof ForkStart>;
