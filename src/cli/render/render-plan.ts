import type { Plan, PlanProgress, PlanTask, TaskStatus } from '../../domain';

const MARK: Record<TaskStatus, string> = { completed: '✓', in_progress: '▶', pending: '○', failed: '✗', blocked: '⊘' };

type ChecklistTask = Pick<PlanTask, 'id' | 'description' | 'status'> & { note?: string | undefined };

/** One line per task: mark, id, description, and the model's note on a finished or failed task. */
export function renderChecklist(tasks: readonly ChecklistTask[], current?: string): string[] {
  return tasks.map((t) => {
    const mark = t.status === 'pending' && t.id === current ? MARK.in_progress : MARK[t.status];
    return `${mark} ${t.id} ${t.description}${t.note ? ` (${t.note})` : ''}`;
  });
}

/**
 * "Plan v1 · 2/5 done", then the checklist indented. Takes the chain's plan (a plan step, the
 * result) or the status query's progress, which already counts and names the current task.
 */
export function renderPlan(plan: Plan | PlanProgress, indent = '  '): string {
  const done = 'completed' in plan ? plan.completed : plan.tasks.filter((t) => t.status === 'completed').length;
  const total = 'total' in plan ? plan.total : plan.tasks.length;
  const source =
    plan.source === 'model' ? '' : ` · ${plan.source}${'template' in plan && plan.template ? ` ${plan.template}` : ''}`;
  const lines = renderChecklist(plan.tasks, 'current' in plan ? plan.current : undefined);
  return [`Plan v${plan.version} · ${done}/${total} done${source}`, ...lines.map((l) => `${indent}${l}`)].join('\n');
}
