import type { JsonPatchOperation } from '@ag-ui/core';

/** The plan as a front end's shared state: one shape whether it came from a plan step, a status or a task update. */
export interface PlanState {
  version: number;
  completed: number;
  total: number;
  tasks: Array<{ id: string; description: string; status: string; dependencies: string[] }>;
}

interface PlanLike {
  version?: unknown;
  tasks?: ReadonlyArray<{ id?: unknown; description?: unknown; status?: unknown; dependencies?: unknown }>;
}

/** A plan (a plan step's) or a plan's progress (a status's) as PlanState; undefined for anything else. */
export function planState(plan: PlanLike | undefined): PlanState | undefined {
  if (!plan || !Array.isArray(plan.tasks) || plan.tasks.length === 0) return undefined;
  const tasks = plan.tasks.map((t) => ({
    id: String(t.id ?? ''),
    description: String(t.description ?? ''),
    status: String(t.status ?? 'pending'),
    dependencies: Array.isArray(t.dependencies) ? t.dependencies.map(String) : [],
  }));
  return {
    version: typeof plan.version === 'number' ? plan.version : 1,
    completed: tasks.filter((t) => t.status === 'completed').length,
    total: tasks.length,
    tasks,
  };
}

/** The plan after an `update_task` call (its arguments `task_id`, `status`); unchanged when it names no task. */
export function withTaskUpdate(state: PlanState, args: Record<string, unknown>): PlanState {
  const id = args['task_id'];
  const status = args['status'];
  if (typeof id !== 'string' || typeof status !== 'string' || !state.tasks.some((t) => t.id === id)) return state;
  const tasks = state.tasks.map((t) => (t.id === id ? { ...t, status } : t));
  return { ...state, tasks, completed: tasks.filter((t) => t.status === 'completed').length };
}

/**
 * JSON Patch from one plan state to the next, under `/plan`: a field per changed task when the
 * tasks are the same ones in the same order, else the task list whole; the counts and version.
 */
export function planPatch(before: PlanState, after: PlanState): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  for (const key of ['version', 'completed', 'total'] as const)
    if (before[key] !== after[key]) ops.push({ op: 'replace', path: `/plan/${key}`, value: after[key] });
  const sameTasks =
    before.tasks.length === after.tasks.length && before.tasks.every((t, i) => t.id === after.tasks[i]!.id);
  if (!sameTasks) {
    ops.push({ op: 'replace', path: '/plan/tasks', value: after.tasks });
    return ops;
  }
  after.tasks.forEach((task, i) => {
    const old = before.tasks[i]!;
    for (const field of ['description', 'status', 'dependencies'] as const)
      if (JSON.stringify(old[field]) !== JSON.stringify(task[field]))
        ops.push({ op: 'replace', path: `/plan/tasks/${i}/${field}`, value: task[field] });
  });
  return ops;
}
