import { z } from 'zod';
import { CacheHit, FallbackKind, Learning, MAX_RUN_LEARNINGS, MAX_VERDICT_TEXT_CHARS } from './plan-verdicts';
import { WorkflowTemplate } from './workflow-template';

export const TaskStatus = z.enum(['pending', 'in_progress', 'completed', 'failed', 'blocked']);
export type TaskStatus = z.infer<typeof TaskStatus>;

/** One subtask of the goal: done in dependency order, one in progress at a time. */
export const PlanTask = z.object({
  id: z.string().min(1),
  description: z.string().min(1),
  /** Ids of tasks that must be completed first. */
  dependencies: z.array(z.string()).default([]),
  /** Tools the planner expects the task to need; advice for the model, not enforced. */
  requiredTools: z.array(z.string()).default([]),
  status: TaskStatus.default('pending'),
  /** What the model reported when it completed or failed the task. */
  note: z.string().optional(),
  /** The planner's estimate (seed 003): absent for plans made before it was asked. */
  complexity: z.enum(['low', 'medium', 'high']).optional(),
  /** What completing the task produced, as the model or observer reported it. */
  result: z.string().max(MAX_VERDICT_TEXT_CHARS).optional(),
  /** Why the task failed. */
  error: z.string().max(MAX_VERDICT_TEXT_CHARS).optional(),
  /** Small facts about the task (where it came from, which fallback made it), at most 16 entries. */
  metadata: z
    .record(z.string().max(64), z.string().max(200))
    .refine((m) => Object.keys(m).length <= 16, { message: 'A task carries at most 16 metadata entries.' })
    .optional(),
  /** From a workflow file: the only tools the agent may call while this task is in progress. */
  allowedTools: z.array(z.string()).optional(),
  /** From a workflow file: every tool call made while this task is in progress waits for a person's approval. */
  approval: z.boolean().optional(),
});
export type PlanTask = z.infer<typeof PlanTask>;

export const PlanTemplateName = z.enum(['debug_bug', 'implement_feature', 'refactor_code']);
export type PlanTemplateName = z.infer<typeof PlanTemplateName>;

/** The run's plan: where it came from, and how many times it was made again. */
export const Plan = z.object({
  tasks: z.array(PlanTask).min(1),
  /**
   * `model`: valid as written; `repaired`: valid after one repair call; `template`/`single_task`:
   * the fallbacks; `workflow`: a workflow file's steps as written; `cached`: reused from a run with a similar goal.
   */
  source: z.enum(['model', 'repaired', 'template', 'single_task', 'workflow', 'cached']),
  /** 1 for the first plan, +1 for each re-plan. */
  version: z.number().int().positive(),
  template: PlanTemplateName.optional(),
  /** The workflow file's name, for a plan of source `workflow`. */
  workflow: z.string().optional(),
  /** What the observer learnt so far, newest last; fed to later prompts. At most MAX_RUN_LEARNINGS. */
  learnings: z.array(Learning).max(MAX_RUN_LEARNINGS).optional(),
  /** For a plan reused from the cache: the run that stored it and when, which the model reads it as quoted from. */
  reusedFrom: CacheHit.optional(),
});
export type Plan = z.infer<typeof Plan>;

/** Planning is on when a run's input has this. */
export const PlanningSettings = z.object({
  /** A named template (`debug_bug`, `implement_feature`, `refactor_code`) whose steps seed the planner, and the plan if the planner fails. */
  template: PlanTemplateName.optional(),
  /** A visible reflection step (one model call) every this many iterations; 0 turns it off. */
  reflectEvery: z.number().int().nonnegative().default(3),
  /** Re-plans allowed after a task fails. */
  maxReplans: z.number().int().nonnegative().default(1),
  /** Plans with more tasks than this are invalid (and repaired). */
  maxTasks: z.number().int().positive().default(12),
  /** The injected tool by which the model reports a task's progress. */
  updateToolName: z.string().min(1).default('update_task'),
  /** A workflow file's steps: the plan as written (no planner call), with its per-step tools and approvals. */
  workflow: WorkflowTemplate.optional(),
  /** One observer model call after each action: did it succeed, what was learnt, what it unblocked. */
  observe: z.boolean().default(false),
  /** Before the run may answer, one model call checks the goal is met, or sends the agent back with what is missing. */
  goalCheck: z.boolean().default(false),
  /** How many times the goal check may send the agent back before the answer stands as it is. */
  maxGoalChecks: z.number().int().min(1).max(5).default(2),
  /** Read this agent's learnings from earlier runs of the same tenant, and keep this run's for later ones. */
  memory: z.boolean().default(false),
  /**
   * Seed 003's strategies for a failed task the agent may choose from; `ask_user` also needs
   * `allowQuestions`. None by default (opt-in like the rest: the update tool is then sent as before).
   */
  fallbacks: z.array(FallbackKind).max(4).default([]),
  /**
   * An ask_model call that names no model goes to the cheapest model whose tier covers the task in
   * progress's estimated complexity; `false` sends it to the tool's default model. Either way the
   * call step says which and why.
   */
  routeModels: z.boolean().default(true),
});
export type PlanningSettings = z.infer<typeof PlanningSettings>;

/** What `status` shows of the plan: small enough to poll. */
export const PlanProgress = z.object({
  version: z.number().int().positive(),
  source: Plan.shape.source,
  completed: z.number().int().nonnegative(),
  total: z.number().int().positive(),
  /** The task the run works on now, if any. */
  current: z.string().optional(),
  tasks: z.array(PlanTask.pick({ id: true, description: true, status: true, dependencies: true, complexity: true })),
});
export type PlanProgress = z.infer<typeof PlanProgress>;
