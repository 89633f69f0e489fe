import type { Plan } from '../../../domain';

/** What the plan's current step says of one tool call: run it, refuse it (an observation), or ask a person first. */
export type StepToolRule =
  { kind: 'free' } | { kind: 'refuse'; observation: string } | { kind: 'approve'; reason: string };

const FREE: Readonly<StepToolRule> = { kind: 'free' };

/**
 * The workflow file's per-step rules for a call to a registered tool (docs/teams-and-plans.md).
 * The injected control tools (update_task, finish, give-up, questions) never reach this: the
 * tool turn routes them first. Every task in progress counts, so two at once allow only what
 * both allow, and either's approval holds. A workflow plan with no step in progress (finished, or
 * everything left blocked) refuses tools: the run answers or restarts a step, it does not work
 * outside the file. Plans not from a workflow file carry no rules: every call is free. Pure.
 */
export function stepToolRule(plan: Plan | undefined, toolName: string, updateToolName: string): StepToolRule {
  if (!plan || plan.source !== 'workflow') return FREE;
  const current = plan.tasks.filter((t) => t.status === 'in_progress');
  if (current.length === 0)
    return {
      kind: 'refuse',
      observation:
        `Not run: no step of the workflow "${plan.workflow ?? ''}" is in progress, so no tool may be called. ` +
        `Give your final answer, or restart a step with "${updateToolName}".`,
    };
  const limiting = current.find((t) => t.allowedTools !== undefined && !t.allowedTools.includes(toolName));
  if (limiting) {
    const allowed = limiting.allowedTools!.length > 0 ? limiting.allowedTools!.join(', ') : 'none';
    return {
      kind: 'refuse',
      observation:
        `Not run: while step "${limiting.id}" is in progress only these tools may be called: ${allowed}. ` +
        `Use one of them, or report the step with "${updateToolName}" first.`,
    };
  }
  const approving = current.find((t) => t.approval === true);
  if (approving) return { kind: 'approve', reason: `step "${approving.id}" of the workflow requires approval` };
  return FREE;
}
