import type { Plan, PlanTask } from '../../../domain';
import type { WorkflowTemplate } from '../../../domain/planning/workflow-template';

/**
 * A workflow file's steps as the run's plan, as written (seed 003's workflow manager): no planner
 * call, step ids kept, `after` as dependencies, the step's tools as both the planner's advice and
 * the rule (`allowedTools`), its approval flag as is. The template was checked in full when the
 * input was parsed (ids, references, cycles), so this cannot fail. Pure.
 */
export function workflowPlan(template: WorkflowTemplate): Plan {
  const tasks = template.steps.map((step): PlanTask => ({
    id: step.id,
    description: step.description,
    dependencies: [...step.after],
    requiredTools: step.tools ? [...step.tools] : [],
    status: 'pending',
    metadata: { source: 'workflow' },
    ...(step.tools ? { allowedTools: [...step.tools] } : {}),
    ...(step.approval ? { approval: true } : {}),
  }));
  return { tasks, source: 'workflow', version: 1, workflow: template.name };
}
