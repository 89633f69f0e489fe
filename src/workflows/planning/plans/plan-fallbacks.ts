import type { FallbackDecision, FallbackKind, Plan, PlanTask } from '../../../domain';
import { settleBlocked, type SplitSubtask, type TaskUpdate } from './plan-tracker';

/**
 * Seed 003's fallback strategies for a failed task, as pure transitions (docs/planning.md): the
 * model names one with its `"failed"` update. Inputs are never mutated. A fallback that cannot
 * apply is refused with a message for the model, and the plan stays as it was.
 */

export type FallbackResult =
  { ok: true; plan: Plan; decision: FallbackDecision; message: string } | { ok: false; message: string };

/** What a fallback may use of the run: the allowed strategies, its tools, whether it may ask a person. */
export interface FallbackRoom {
  allowed: readonly FallbackKind[];
  toolNames: readonly string[];
  allowQuestions: boolean;
}

/** Why this fallback cannot be used here, or undefined when it can. */
export function refuseFallback(plan: Plan, update: TaskUpdate, room: FallbackRoom): string | undefined {
  const kind = update.fallback;
  if (kind === undefined) return undefined;
  if (update.status !== 'failed') return `A fallback goes with "status": "failed"; nothing was changed.`;
  if (!room.allowed.includes(kind))
    return room.allowed.length === 0
      ? `Fallbacks are off for this run ("${kind}" refused); nothing was changed. Report the task failed without one.`
      : `The fallback "${kind}" is not allowed in this run; allowed: ${room.allowed.join(', ')}. Nothing was changed.`;
  const task = plan.tasks.find((t) => t.id === update.task_id);
  if (!task || task.status === 'completed' || task.status === 'blocked') return undefined; // applyTaskUpdate says why.
  switch (kind) {
    case 'split': {
      const subtasks = update.subtasks ?? [];
      if (subtasks.length === 0) return '"split" needs "subtasks": 2 to 5 {"id", "description"}; nothing was changed.';
      const taken = new Set(plan.tasks.filter((t) => t.id !== task.id).map((t) => t.id));
      const ids = subtasks.map((s) => s.id);
      const clash = ids.filter((id, i) => taken.has(id) || ids.indexOf(id) !== i);
      return clash.length > 0
        ? `"split" needs new, distinct subtask ids; taken or repeated: ${[...new Set(clash)].join(', ')}. Nothing was changed.`
        : undefined;
    }
    case 'alternative_tool':
      if (!update.tool) return '"alternative_tool" needs "tool": the tool to try instead; nothing was changed.';
      return room.toolNames.includes(update.tool)
        ? undefined
        : `"${update.tool}" is not one of this run's tools (${room.toolNames.join(', ') || 'none'}); nothing was changed.`;
    case 'ask_user':
      return room.allowQuestions
        ? undefined
        : '"ask_user" needs the run to allow questions (allowQuestions), and this one does not; nothing was changed.';
    case 'mark_blocked':
      return undefined;
  }
}

/**
 * `split`: the failed task is replaced, in place, by its subtasks in a chain: the first after the
 * failed task's dependencies, each after the one before; what depended on the failed task now
 * depends on the last subtask.
 */
export function splitTask(
  plan: Plan,
  taskId: string,
  subtasks: readonly SplitSubtask[],
  reason: string,
): FallbackResult {
  const failed = plan.tasks.find((t) => t.id === taskId);
  const last = subtasks[subtasks.length - 1];
  if (!failed || !last) return { ok: false, message: `Unknown task "${taskId}", or no subtasks.` };
  const made: PlanTask[] = subtasks.map((s, i) => ({
    id: s.id,
    description: s.description,
    dependencies: i === 0 ? [...failed.dependencies] : [subtasks[i - 1]!.id],
    requiredTools: [],
    status: 'pending',
    metadata: { splitFrom: taskId },
  }));
  const tasks = plan.tasks.flatMap((t): PlanTask[] =>
    t.id === taskId
      ? made
      : [
          t.dependencies.includes(taskId)
            ? { ...t, dependencies: t.dependencies.map((d) => (d === taskId ? last.id : d)) }
            : t,
        ],
  );
  const ids = subtasks.map((s) => s.id);
  return {
    ok: true,
    plan: settleBlocked({ ...plan, tasks }),
    decision: { taskId, kind: 'split', reason, newTasks: ids },
    message: `Task "${taskId}" is split into ${ids.join(', ')}; work on them in that order.`,
  };
}

/** `alternative_tool`: the task goes back to in progress, to be tried with `tool`. */
export function retryWithTool(plan: Plan, taskId: string, tool: string, reason: string): FallbackResult {
  const task = plan.tasks.find((t) => t.id === taskId);
  if (!task) return { ok: false, message: `Unknown task "${taskId}".` };
  const retried: PlanTask = { ...task, status: 'in_progress', metadata: withMeta(task, 'alternativeTool', tool) };
  return {
    ok: true,
    plan: withTask(plan, retried),
    decision: { taskId, kind: 'alternative_tool', reason, tool },
    message: `Task "${taskId}" is back in progress: try it with the "${tool}" tool instead.`,
  };
}

/** `mark_blocked`: the task stays blocked, and so does everything that depends on it; the others go on. */
export function markBlocked(plan: Plan, taskId: string, reason: string): FallbackResult {
  const task = plan.tasks.find((t) => t.id === taskId);
  if (!task) return { ok: false, message: `Unknown task "${taskId}".` };
  const blocked: PlanTask = {
    ...task,
    status: 'blocked',
    ...(reason ? { note: reason } : {}),
    metadata: withMeta(task, 'fallback', 'mark_blocked'),
  };
  const next = settleBlocked(withTask(plan, blocked));
  const downstream = next.tasks.filter((t) => t.status === 'blocked' && t.id !== taskId).map((t) => t.id);
  return {
    ok: true,
    plan: next,
    decision: { taskId, kind: 'mark_blocked', reason },
    message: `Task "${taskId}" is marked blocked${downstream.length ? ` (blocked with it: ${downstream.join(', ')})` : ''}; go on with the other tasks.`,
  };
}

/** `ask_user` after the person answered: the task goes back to in progress, with their answer to go on. */
export function retryAfterAnswer(plan: Plan, taskId: string, reason: string): FallbackResult {
  const task = plan.tasks.find((t) => t.id === taskId);
  if (!task) return { ok: false, message: `Unknown task "${taskId}".` };
  const retried: PlanTask = { ...task, status: 'in_progress', metadata: withMeta(task, 'fallback', 'ask_user') };
  return {
    ok: true,
    plan: withTask(plan, retried),
    decision: { taskId, kind: 'ask_user', reason },
    message: `Task "${taskId}" is back in progress with the person's answer.`,
  };
}

/** A task's metadata with one entry set, within the 16 entries a task may carry (a full map is kept as it is). */
function withMeta(task: PlanTask, key: string, value: string): Record<string, string> {
  const metadata = { ...task.metadata };
  if (key in metadata || Object.keys(metadata).length < 16) metadata[key] = value.slice(0, 200);
  return metadata;
}

function withTask(plan: Plan, task: PlanTask): Plan {
  return { ...plan, tasks: plan.tasks.map((t) => (t.id === task.id ? task : t)) };
}
