import { z } from 'zod';

/**
 * What the planner's loop decides and learns, kept on the thinking steps that record it (seed 003's
 * reasoner, observer and fallback strategies, and the goal-completion check). Every text is bounded,
 * as each step is carried in the chain.
 */
export const MAX_LEARNING_CHARS = 500;
/** Learnings a run carries (its plan's `learnings`): past this, the oldest are dropped. */
export const MAX_RUN_LEARNINGS = 20;
export const MAX_VERDICT_TEXT_CHARS = 1_000;

const verdictText = z.string().max(MAX_VERDICT_TEXT_CHARS);

/** Something the observer learnt, where it was learnt, and (for one read from memory) which run it came from. */
export const Learning = z.object({
  text: z.string().min(1).max(MAX_LEARNING_CHARS),
  taskId: z.string().max(64).optional(),
  /** The workflow id of the run that learnt it, when it came from memory. */
  fromRun: z.string().max(256).optional(),
  /** When memory kept it (ISO 8601), for one read from memory. */
  at: z.string().max(40).optional(),
});
export type Learning = z.infer<typeof Learning>;

/** The observer's reading of one action (one model call after it, opt-in: `planning.observe`). */
export const ObserverVerdict = z.object({
  taskId: z.string().max(64).optional(),
  success: z.boolean(),
  learned: z.string().max(MAX_LEARNING_CHARS).optional(),
  /** Tasks this action made ready. */
  unblocked: z.array(z.string().max(64)).max(30).default([]),
  /** A change the observer suggests to the plan, in words. */
  adjustment: verdictText.optional(),
});
export type ObserverVerdict = z.infer<typeof ObserverVerdict>;

/** Which task the run works on next, and why. */
export const TaskChoice = z.object({
  taskId: z.string().max(64),
  reason: verdictText,
  /** The other tasks that were ready. */
  alternatives: z.array(z.string().max(64)).max(30).default([]),
  /**
   * Who chose: the model, in its own turn, among several ready tasks; or plan order, the rule for
   * a single ready task, a workflow file's steps, a turn without a choice, a refused choice and the
   * offline model. Absent on chains recorded before the model chose (plan order then).
   */
  chosenBy: z.enum(['model', 'plan_order']).optional(),
  /** The model's choice that was refused, and why; plan order started `taskId` instead. */
  refused: z.object({ taskId: z.string().max(64), problem: z.enum(['unknown_task', 'not_ready']) }).optional(),
});
export type TaskChoice = z.infer<typeof TaskChoice>;

/** Seed 003's fallback strategies for a task that fails. */
export const FallbackKind = z.enum(['split', 'alternative_tool', 'ask_user', 'mark_blocked']);
export type FallbackKind = z.infer<typeof FallbackKind>;

export const FallbackDecision = z.object({
  taskId: z.string().max(64),
  kind: FallbackKind,
  reason: verdictText,
  /** `split`: the new tasks' ids. `alternative_tool`: the tool to try. */
  newTasks: z.array(z.string().max(64)).max(30).optional(),
  tool: z.string().max(128).optional(),
});
export type FallbackDecision = z.infer<typeof FallbackDecision>;

/** The check before a run may answer (`planning.goalCheck`): met, or what is missing. */
export const GoalCheckVerdict = z.object({
  met: z.boolean(),
  missing: verdictText.optional(),
  /** 1 for the first check of the run. */
  attempt: z.number().int().positive(),
});
export type GoalCheckVerdict = z.infer<typeof GoalCheckVerdict>;

/** Where a reused result came from (a tool result, a model reply or a plan from the cache) and how old it is. */
export const CacheHit = z.object({
  kind: z.enum(['tool', 'model', 'plan']),
  /** The workflow id of the run that stored it. */
  fromRun: z.string().max(256),
  storedAt: z.string().max(40),
  ageMs: z.number().int().nonnegative(),
  /** A plan stored for another, similar goal: how alike the goals are (0–1, text/similarity.ts). Absent for the same goal key. */
  similarity: z.number().min(0).max(1).optional(),
});
export type CacheHit = z.infer<typeof CacheHit>;
