import type { Plan, PlanTask } from '../../../domain';
import { MAX_VERDICT_TEXT_CHARS, type TaskChoice } from '../../../domain/planning/plan-verdicts';
import { boundedText as cut } from '../bounded-text';

/** Ids in a TaskChoice are cut to this many characters (the chain's schema bound). */
const MAX_ID_CHARS = 64;
const MAX_ALTERNATIVES = 30;

/**
 * Why the run starts `started` now, in words and without a model call (seed 003's reasoner, made
 * deterministic): its dependencies are completed, and the other ready tasks wait their turn in plan
 * order. `plan` is the plan before the task started. Bounded to the TaskChoice schema. Pure.
 */
export function taskChoice(plan: Plan, started: PlanTask): TaskChoice {
  const done = new Set(plan.tasks.filter((t) => t.status === 'completed').map((t) => t.id));
  const alternatives = plan.tasks
    .filter((t) => t.id !== started.id && t.status === 'pending' && t.dependencies.every((d) => done.has(d)))
    .map((t) => t.id);
  const deps = started.dependencies;
  const why =
    deps.length === 0
      ? 'it depends on no other task'
      : `its ${deps.length === 1 ? 'dependency' : 'dependencies'} ${deps.join(', ')} ${deps.length === 1 ? 'is' : 'are'} completed`;
  const others =
    alternatives.length === 0
      ? 'no other task is ready'
      : `${alternatives.join(', ')} ${alternatives.length === 1 ? 'is' : 'are'} also ready and ${alternatives.length === 1 ? 'waits its' : 'wait their'} turn in plan order`;
  return {
    taskId: cut(started.id, MAX_ID_CHARS),
    reason: cut(`${started.id} next: ${why}; ${others}.`, MAX_VERDICT_TEXT_CHARS),
    alternatives: alternatives.slice(0, MAX_ALTERNATIVES).map((id) => cut(id, MAX_ID_CHARS)),
  };
}
