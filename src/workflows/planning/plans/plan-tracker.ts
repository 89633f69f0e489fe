import { z } from 'zod';
import {
  FallbackKind,
  type ModelTool,
  type Plan,
  type PlanningSettings,
  type PlanProgress,
  type PlanTask,
} from '../../../domain';
import { MAX_VERDICT_TEXT_CHARS } from '../../../domain/planning/plan-verdicts';
import { boundedText } from '../bounded-text';

/**
 * Pure transitions over a plan (docs/teams-and-plans.md). Inputs are never mutated; each change returns a new
 * plan. Deterministic, so the workflow may call them freely.
 */

/** A smaller task that replaces a failed one (the `split` fallback). */
export const SplitSubtask = z.object({
  id: z.string().trim().min(1).max(64),
  description: z.string().trim().min(1).max(500),
});
export type SplitSubtask = z.infer<typeof SplitSubtask>;
export const MIN_SPLIT_SUBTASKS = 2;
export const MAX_SPLIT_SUBTASKS = 5;

/** The arguments of the injected update tool; the fallback fields go with `"failed"` (plan-fallbacks.ts). */
export const TaskUpdate = z.object({
  task_id: z.string().trim().min(1),
  status: z.enum(['in_progress', 'completed', 'failed']),
  note: z.string().optional(),
  fallback: FallbackKind.optional(),
  subtasks: z.array(SplitSubtask).min(MIN_SPLIT_SUBTASKS).max(MAX_SPLIT_SUBTASKS).optional(),
  tool: z.string().trim().min(1).max(128).optional(),
});
export type TaskUpdate = z.infer<typeof TaskUpdate>;

/** A refused update is an observation for the model, not an error. */
export type TaskUpdateResult = { ok: true; plan: Plan; message: string } | { ok: false; message: string };

/** Pending tasks whose dependencies are all completed, in plan order. */
export function readyTasks(plan: Plan): PlanTask[] {
  const done = new Set(plan.tasks.filter((t) => t.status === 'completed').map((t) => t.id));
  return plan.tasks.filter((t) => t.status === 'pending' && t.dependencies.every((d) => done.has(d)));
}

/** Starts the first ready task, unless one is already in progress. */
export function startNextTask(plan: Plan): { plan: Plan; started?: PlanTask } {
  if (plan.tasks.some((t) => t.status === 'in_progress')) return { plan };
  const next = readyTasks(plan)[0];
  if (!next) return { plan };
  const started: PlanTask = { ...next, status: 'in_progress' };
  return { plan: withTask(plan, started), started };
}

/**
 * The model's report on a task. Completed and blocked tasks cannot change; a task cannot start
 * or complete before its dependencies. Failing a task blocks everything that depends on it,
 * transitively; restarting a failed task unblocks them again.
 */
export function applyTaskUpdate(plan: Plan, update: TaskUpdate): TaskUpdateResult {
  const task = plan.tasks.find((t) => t.id === update.task_id);
  if (!task) {
    return {
      ok: false,
      message: `Unknown task "${update.task_id}". Valid task ids: ${plan.tasks.map((t) => t.id).join(', ')}.`,
    };
  }
  if (task.status === 'completed') {
    return {
      ok: false,
      message: `Task "${task.id}" is already completed and cannot change. Work on a task that is not completed.`,
    };
  }
  if (task.status === 'blocked') {
    const failed = failedAncestors(plan, task.id).join(', ') || 'none';
    return {
      ok: false,
      message: `Task "${task.id}" is blocked: a task it depends on failed (failed: ${failed}); it cannot be worked on.`,
    };
  }
  if (update.status !== 'failed') {
    const missing = task.dependencies.filter((d) => statusOf(plan, d) !== 'completed');
    if (missing.length > 0) {
      const verb = update.status === 'completed' ? 'completed' : 'started';
      const list = missing.map((d) => `"${d}" (${statusOf(plan, d) ?? 'unknown'})`).join(', ');
      return {
        ok: false,
        message: `Task "${task.id}" cannot be ${verb} yet: these dependencies are not completed: ${list}.`,
      };
    }
  }
  const changed: PlanTask = {
    ...task,
    status: update.status,
    ...(update.note !== undefined ? { note: update.note } : {}),
    ...taskOutcome(update),
  };
  const next = settleBlocked(withTask(plan, changed));
  return { ok: true, plan: next, message: updateMessage(plan, next, changed) };
}

export function planProgress(plan: Plan): PlanProgress {
  const current = plan.tasks.find((t) => t.status === 'in_progress')?.id;
  return {
    version: plan.version,
    source: plan.source,
    completed: plan.tasks.filter((t) => t.status === 'completed').length,
    total: plan.tasks.length,
    ...(current !== undefined ? { current } : {}),
    tasks: plan.tasks.map(({ id, description, status, dependencies, complexity }) => ({
      id,
      description,
      status,
      dependencies,
      ...(complexity !== undefined ? { complexity } : {}),
    })),
  };
}

/** Nothing left to do: every task is completed, failed or blocked. */
export const isPlanFinished = (plan: Plan): boolean =>
  !plan.tasks.some((t) => t.status === 'pending' || t.status === 'in_progress');

/**
 * A re-plan: the old plan's completed tasks stay as they were (a new task repeating one of their
 * ids does not reopen it), the new tasks replace everything else.
 */
export function mergeReplan(old: Plan, newTasks: readonly PlanTask[]): Plan {
  const kept = old.tasks.filter((t) => t.status === 'completed');
  const keptIds = new Set(kept.map((t) => t.id));
  return { ...old, tasks: [...kept, ...newTasks.filter((t) => !keptIds.has(t.id))], version: old.version + 1 };
}

/** How the update tool describes each fallback to the model. */
const FALLBACK_HELP: Readonly<Record<FallbackKind, string>> = {
  split: '"split": replace the task by 2-5 smaller "subtasks"',
  alternative_tool: '"alternative_tool": retry it with another "tool"',
  ask_user: '"ask_user": ask the person (the "note" says what went wrong)',
  mark_blocked: '"mark_blocked": leave it blocked and go on with the other tasks',
};

/**
 * The injected tool by which the model reports progress; its calls go to `applyTaskUpdate`. The
 * fallback fields are offered only when `fallbacks` names some (off by default, so a run without
 * them sends the tool as before).
 */
export function updateTaskTool(
  settings: Pick<PlanningSettings, 'updateToolName'> & { fallbacks?: readonly FallbackKind[] },
): ModelTool {
  const fallbacks = settings.fallbacks ?? [];
  const description =
    'Report progress on a task of the plan: "in_progress" when you start it, "completed" when it is done, ' +
    '"failed" when it cannot be done. A task can start only after its dependencies are completed.';
  const properties: Record<string, unknown> = {
    task_id: { type: 'string', description: 'The id of a task in the plan, e.g. "t1".' },
    status: { type: 'string', enum: ['in_progress', 'completed', 'failed'] },
    note: { type: 'string', description: 'What was done, or why the task failed.' },
  };
  if (fallbacks.length > 0) {
    properties['fallback'] = {
      type: 'string',
      enum: [...fallbacks],
      description: `With "failed": what to do instead. ${fallbacks.map((f) => FALLBACK_HELP[f]).join('; ')}.`,
    };
    properties['subtasks'] = {
      type: 'array',
      minItems: MIN_SPLIT_SUBTASKS,
      maxItems: MAX_SPLIT_SUBTASKS,
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, description: { type: 'string' } },
        required: ['id', 'description'],
      },
    };
    properties['tool'] = { type: 'string', description: 'For "alternative_tool": the tool to try instead.' };
  }
  return {
    name: settings.updateToolName,
    description,
    inputSchema: { type: 'object', properties, required: ['task_id', 'status'], additionalProperties: false },
  };
}

/** The update tool's arguments, or a message telling the model what to send instead. */
export function parseTaskUpdate(
  input: Record<string, unknown>,
): { ok: true; update: TaskUpdate } | { ok: false; message: string } {
  const parsed = TaskUpdate.safeParse(input);
  if (parsed.success) return { ok: true, update: parsed.data };
  return {
    ok: false,
    message:
      'Invalid task update: send "task_id" (a task id from the plan), "status" ("in_progress", "completed" or "failed") ' +
      `and optionally "note" (text).\n${z.prettifyError(parsed.error)}`,
  };
}

/** A completion's note is the task's result, a failure's its error; bounded, as the plan is carried in the chain. */
function taskOutcome(update: TaskUpdate): Pick<PlanTask, 'result' | 'error'> {
  if (update.note === undefined || update.note.trim() === '') return {};
  const text = boundedText(update.note.trim(), MAX_VERDICT_TEXT_CHARS);
  if (update.status === 'completed') return { result: text };
  if (update.status === 'failed') return { error: text };
  return {};
}

function withTask(plan: Plan, task: PlanTask): Plan {
  return { ...plan, tasks: plan.tasks.map((t) => (t.id === task.id ? task : t)) };
}

const statusOf = (plan: Plan, id: string) => plan.tasks.find((t) => t.id === id)?.status;

/** A task the model left blocked (the `mark_blocked` fallback): it stays so, and blocks what depends on it. */
export const isMarkedBlocked = (task: PlanTask): boolean =>
  task.status === 'blocked' && task.metadata?.['fallback'] === 'mark_blocked';

/** Failed (or marked blocked) tasks among everything `id` depends on, directly or transitively, in plan order. */
function failedAncestors(plan: Plan, id: string): string[] {
  const byId = new Map(plan.tasks.map((t) => [t.id, t]));
  const seen = new Set<string>();
  const walk = (taskId: string): void => {
    for (const dep of byId.get(taskId)?.dependencies ?? []) {
      if (seen.has(dep)) continue;
      seen.add(dep);
      walk(dep);
    }
  };
  walk(id);
  return plan.tasks.filter((t) => seen.has(t.id) && (t.status === 'failed' || isMarkedBlocked(t))).map((t) => t.id);
}

/** Open tasks downstream of a failure are blocked; blocked ones whose failures were retried reopen. */
export function settleBlocked(plan: Plan): Plan {
  const tasks = plan.tasks.map((t): PlanTask => {
    if (t.status === 'completed' || t.status === 'failed' || isMarkedBlocked(t)) return t;
    const blocked = failedAncestors(plan, t.id).length > 0;
    if (blocked) return t.status === 'blocked' ? t : { ...t, status: 'blocked' };
    return t.status === 'blocked' ? { ...t, status: 'pending' } : t;
  });
  return { ...plan, tasks };
}

function updateMessage(before: Plan, after: Plan, task: PlanTask): string {
  if (task.status === 'failed') {
    const newlyBlocked = after.tasks
      .filter((t) => t.status === 'blocked' && statusOf(before, t.id) !== 'blocked')
      .map((t) => t.id);
    const blocked = newlyBlocked.length > 0 ? ` Blocked because of it: ${newlyBlocked.join(', ')}.` : '';
    return `Task "${task.id}" is marked failed.${blocked}`;
  }
  if (task.status === 'in_progress') return `Task "${task.id}" is in progress.`;
  const done = after.tasks.filter((t) => t.status === 'completed').length;
  const ready = readyTasks(after).map((t) => t.id);
  const next =
    ready.length > 0 ? ` Ready next: ${ready.join(', ')}.` : isPlanFinished(after) ? ' No tasks are left.' : '';
  return `Task "${task.id}" is completed (${done} of ${after.tasks.length}).${next}`;
}
