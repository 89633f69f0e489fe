import { z } from 'zod';
import { isIdentifierName } from '../text/identifier-name';

/**
 * A workflow file (`thoughtline run --workflow FILE`, seed 003's workflow manager): named steps
 * with dependencies, the tools each step may use, and the steps a person approves. Its steps are
 * the run's plan as written: no planner call. Checked here in full (ids, references, cycles), so
 * a run given one it cannot follow is refused before it starts; the CLI's reader adds line numbers.
 */
export const MAX_WORKFLOW_STEPS = 30;
export const MAX_WORKFLOW_STEP_TOOLS = 32;
export const MAX_WORKFLOW_TEXT_CHARS = 2_000;
export const MAX_WORKFLOW_NAME_CHARS = 64;

const stepId = z.string().refine((id) => isIdentifierName(id, MAX_WORKFLOW_NAME_CHARS), {
  message: `A step id is a name of letters, digits, "-", "." or "_", starting with a letter, at most ${MAX_WORKFLOW_NAME_CHARS} characters.`,
});

export const WorkflowStep = z.strictObject({
  id: stepId,
  description: z.string().trim().min(1).max(MAX_WORKFLOW_TEXT_CHARS),
  /** Ids of steps that must be completed first. */
  after: z.array(stepId).max(MAX_WORKFLOW_STEPS).default([]),
  /** The only tools the agent may call while this step is in progress; absent: the run's tools. */
  tools: z.array(z.string().min(1).max(128)).max(MAX_WORKFLOW_STEP_TOOLS).optional(),
  /** Every tool call made while this step is in progress waits for a person's approval. */
  approval: z.boolean().default(false),
});
export type WorkflowStep = z.infer<typeof WorkflowStep>;

export const WorkflowTemplate = z
  .strictObject({
    name: stepId,
    /** What the workflow does; the run's goal when the user gives none. */
    description: z.string().trim().min(1).max(MAX_WORKFLOW_TEXT_CHARS).optional(),
    steps: z.array(WorkflowStep).min(1).max(MAX_WORKFLOW_STEPS),
  })
  .superRefine((template, ctx) => {
    for (const problem of workflowGraphProblems(template.steps))
      ctx.addIssue({ code: 'custom', path: ['steps', problem.index, ...problem.path], message: problem.message });
  });
export type WorkflowTemplate = z.infer<typeof WorkflowTemplate>;
export type WorkflowTemplateInit = z.input<typeof WorkflowTemplate>;

export interface WorkflowGraphProblem {
  /** The step the problem is in, by its position in `steps`. */
  index: number;
  path: (string | number)[];
  message: string;
}

/** Duplicate ids, dependencies on unknown or own ids, and cycles; pure, in the order of the steps. */
export function workflowGraphProblems(
  steps: readonly { id: string; after?: readonly string[] | undefined }[],
): WorkflowGraphProblem[] {
  const problems: WorkflowGraphProblem[] = [];
  const firstIndex = new Map<string, number>();
  steps.forEach((step, index) => {
    if (firstIndex.has(step.id))
      problems.push({
        index,
        path: ['id'],
        message: `Step id "${step.id}" is used twice (first by step ${firstIndex.get(step.id)! + 1}).`,
      });
    else firstIndex.set(step.id, index);
  });
  steps.forEach((step, index) =>
    (step.after ?? []).forEach((dep, at) => {
      if (dep === step.id)
        problems.push({ index, path: ['after', at], message: `Step "${step.id}" depends on itself.` });
      else if (!firstIndex.has(dep))
        problems.push({
          index,
          path: ['after', at],
          message: `Step "${step.id}" depends on "${dep}", which is not a step of this workflow (steps: ${[...firstIndex.keys()].join(', ')}).`,
        });
    }),
  );
  if (problems.length > 0) return problems;
  const cycle = findCycle(steps);
  if (cycle) {
    const index = firstIndex.get(cycle[0]!)!;
    problems.push({
      index,
      path: ['after'],
      message: `The steps depend on each other in a cycle: ${cycle.join(' → ')}.`,
    });
  }
  return problems;
}

/** One dependency cycle as step ids (first repeated at the end), or undefined; iterative, so deep files cannot overflow. */
function findCycle(steps: readonly { id: string; after?: readonly string[] | undefined }[]): string[] | undefined {
  const after = new Map(steps.map((s) => [s.id, s.after ?? []]));
  const state = new Map<string, 'open' | 'done'>();
  for (const root of steps) {
    if (state.has(root.id)) continue;
    const path: string[] = [];
    const stack: { id: string; next: number }[] = [{ id: root.id, next: 0 }];
    state.set(root.id, 'open');
    path.push(root.id);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const deps = after.get(top.id) ?? [];
      if (top.next >= deps.length) {
        state.set(top.id, 'done');
        stack.pop();
        path.pop();
        continue;
      }
      const dep = deps[top.next++]!;
      const seen = state.get(dep);
      if (seen === 'open') return [...path.slice(path.indexOf(dep)), dep];
      if (seen === 'done') continue;
      state.set(dep, 'open');
      stack.push({ id: dep, next: 0 });
      path.push(dep);
    }
  }
  return undefined;
}
