import type { Plan, PlanTask } from '../../../domain';
import { MAX_VERDICT_TEXT_CHARS, type TaskChoice } from '../../../domain/planning/plan-verdicts';
import { redactSecretsInText } from '../../../domain/secrets/secret-patterns';
import { boundedText as cut } from '../bounded-text';
import { readyTasks, startNextTask } from './plan-tracker';

/**
 * Which task the run takes up next, and why (seed 003's reasoner, in the model's own turn). When
 * more than one task is ready and none is in progress, nothing starts: the model's next reply
 * chooses with an `update_task` "in_progress" call whose note says why. Plan order (the first
 * ready task) is the rule otherwise: one ready task, a workflow file's steps (their order is the
 * file's), a turn that chose nothing, a refused choice, and so the offline model. Every choice is
 * bounded to the TaskChoice schema. Pure.
 */

/** Ids in a TaskChoice are cut to this many characters (the chain's schema bound). */
const MAX_ID_CHARS = 64;
const MAX_ALTERNATIVES = 30;

/** Why a model's choice was refused (TaskChoice.refused.problem). */
export type RefusedChoice = { taskId: string; problem: 'unknown_task' | 'not_ready'; detail: string };

/** The model is to choose: several tasks are ready, none is in progress, and the plan is not a workflow file's. */
export function awaitsChoice(plan: Plan | undefined): boolean {
  if (!plan || plan.source === 'workflow') return false;
  return !plan.tasks.some((t) => t.status === 'in_progress') && readyTasks(plan).length >= 2;
}

/** Starts the next ready task by plan order with the reason, unless the model is to choose (then nothing starts yet). */
export function startNext(plan: Plan): { plan: Plan; choose?: TaskChoice } {
  if (awaitsChoice(plan)) return { plan };
  const { plan: next, started } = startNextTask(plan);
  return started ? { plan: next, choose: taskChoice(plan, started) } : { plan: next };
}

/**
 * The model's turn left the choice to plan order: it chose nothing (`refused` absent), or chose a
 * task that cannot start. The first ready task starts, and the reason says so.
 */
export function startByPlanOrder(plan: Plan, refused?: RefusedChoice): { plan: Plan; choose?: TaskChoice } {
  const ready = readyTasks(plan).map((t) => t.id);
  const { plan: next, started } = startNextTask(plan);
  if (!started) return { plan: next };
  const why = refused
    ? `the model chose "${cut(refused.taskId, MAX_ID_CHARS)}", which cannot start (${refused.detail})`
    : 'the model did not choose';
  return {
    plan: next,
    choose: {
      ...taskChoice(plan, started),
      reason: cut(
        `${started.id} next, by plan order: ${why}; it is the first of the ready tasks ${ready.join(', ')}.`,
        MAX_VERDICT_TEXT_CHARS,
      ),
      ...(refused ? { refused: { taskId: cut(refused.taskId, MAX_ID_CHARS), problem: refused.problem } } : {}),
    },
  };
}

/**
 * The model's choice of `taskId` while it is to choose: the task starts with the model's reason
 * (secrets redacted, bounded; the task keeps it as its note), or the choice is refused, unknown or
 * not ready, for plan order to take over.
 */
export function modelChoice(
  plan: Plan,
  taskId: string,
  note: string | undefined,
): { ok: true; plan: Plan; choose: TaskChoice } | { ok: false; refused: RefusedChoice } {
  const task = plan.tasks.find((t) => t.id === taskId);
  if (!task)
    return {
      ok: false,
      refused: { taskId, problem: 'unknown_task', detail: `no task "${cut(taskId, MAX_ID_CHARS)}" in the plan` },
    };
  const ready = readyTasks(plan);
  if (!ready.some((t) => t.id === taskId))
    return { ok: false, refused: { taskId, problem: 'not_ready', detail: notReady(plan, task) } };
  const said = note === undefined ? '' : redactSecretsInText(note.trim());
  const reason = cut(said || `The model chose ${task.id} without saying why.`, MAX_VERDICT_TEXT_CHARS);
  const started: PlanTask = { ...task, status: 'in_progress', ...(said ? { note: reason } : {}) };
  return {
    ok: true,
    plan: { ...plan, tasks: plan.tasks.map((t) => (t.id === task.id ? started : t)) },
    choose: {
      taskId: cut(task.id, MAX_ID_CHARS),
      reason,
      alternatives: alternativesTo(ready, task.id),
      chosenBy: 'model',
    },
  };
}

/** What the model reads when its choice is refused: a stable prefix with the problem, and what starts instead. */
export function refusedChoiceMessage(refused: RefusedChoice, started: string | undefined): string {
  const then = started ? `${started} starts (plan order).` : 'No task could start.';
  return `Choice refused (${refused.problem}): ${refused.detail}. ${then}`;
}

/** Why the run starts `started` by plan order, in words and without a model call. `plan` is the plan before it started. */
export function taskChoice(plan: Plan, started: PlanTask): TaskChoice {
  const alternatives = alternativesTo(readyTasks(plan), started.id);
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
    alternatives,
    chosenBy: 'plan_order',
  };
}

const alternativesTo = (ready: readonly PlanTask[], chosen: string): string[] =>
  ready
    .filter((t) => t.id !== chosen)
    .slice(0, MAX_ALTERNATIVES)
    .map((t) => cut(t.id, MAX_ID_CHARS));

function notReady(plan: Plan, task: PlanTask): string {
  const id = cut(task.id, MAX_ID_CHARS);
  if (task.status !== 'pending') return `task "${id}" is ${task.status.replace('_', ' ')}`;
  const waiting = task.dependencies.filter((d) => plan.tasks.find((t) => t.id === d)?.status !== 'completed');
  return `task "${id}" waits for ${waiting.join(', ')}`;
}
