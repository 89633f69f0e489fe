import { PlanTemplateName } from '../../domain';
import type { WorkflowTemplate } from '../../domain/planning/workflow-template';
import { planTemplates } from '../../workflows/planning/plans/plan-templates';

/** A step's id from its text: "Reproduce the bug" is `reproduce_the_bug`. */
const stepId = (text: string): string =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join('_');

/**
 * Seed 003's three workflows (`debug_bug`, `implement_feature`, `refactor_code`) as workflow
 * templates, from the same steps the planner's templates use, so there is one list of them: each
 * step after the one before, every tool allowed, no approvals beyond the tools' own.
 */
export function builtInWorkflow(name: string): WorkflowTemplate | undefined {
  const known = PlanTemplateName.safeParse(name);
  if (!known.success) return undefined;
  const template = planTemplates[known.data];
  const ids = template.steps.map(stepId);
  return {
    name: known.data,
    description: template.description,
    steps: template.steps.map((description, i) => ({
      id: ids[i]!,
      description,
      after: i === 0 ? [] : [ids[i - 1]!],
      approval: false,
    })),
  };
}

export const BUILT_IN_WORKFLOWS: readonly string[] = PlanTemplateName.options;
