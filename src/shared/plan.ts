import { z } from 'zod';

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
});
export type PlanTask = z.infer<typeof PlanTask>;

export const PlanTemplateName = z.enum(['debug_bug', 'implement_feature', 'refactor_code']);
export type PlanTemplateName = z.infer<typeof PlanTemplateName>;

/** The run's plan: where it came from, and how many times it was made again. */
export const Plan = z.object({
  tasks: z.array(PlanTask).min(1),
  /** `model`: valid as written; `repaired`: valid after one repair call; `template`/`single_task`: the fallbacks. */
  source: z.enum(['model', 'repaired', 'template', 'single_task']),
  /** 1 for the first plan, +1 for each re-plan. */
  version: z.number().int().positive(),
  template: PlanTemplateName.optional(),
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
  tasks: z.array(PlanTask.pick({ id: true, description: true, status: true, dependencies: true })),
});
export type PlanProgress = z.infer<typeof PlanProgress>;
