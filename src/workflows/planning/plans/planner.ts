import type { AgentContext, Plan, PlanningSettings, PlanTask } from '../../../domain';
import { readPlanReply } from './plan-reply';
import { mergeReplan } from './plan-tracker';
import { plannerPrompt, plannerSystem, repairPrompt, replanPrompt } from './plan-prompts';
import { templateTasks } from './plan-templates';
import { validatePlan } from './plan-validation';

/**
 * The model as the planner sees it; the workflow backs it with its model activity. `note` is a
 * short label of the call's purpose (`plan`, `plan repair`, `replan`, `replan repair`) for the
 * run's record. Errors it throws are not caught here: the workflow handles its own failure types.
 */
export interface PlannerModel {
  ask(request: { system: string; prompt: string; note: string }): Promise<string>;
}

/** One planner reply and what was wrong with it; `problems` is empty for the accepted one. */
export interface PlanAttempt {
  reply: string;
  problems: string[];
}

/**
 * One planner call and at most one repair call. When both are invalid the plan falls back to the
 * template's steps, or without a template to a single task: the goal itself.
 */
export async function makePlan(
  goal: string,
  toolNames: readonly string[],
  settings: PlanningSettings,
  model: PlannerModel,
  context?: AgentContext,
): Promise<{ plan: Plan; attempts: PlanAttempt[] }> {
  const prompt = plannerPrompt(goal, toolNames, settings, settings.template, context);
  const { tasks, attempts } = await askWithRepair(model, prompt, 'plan', settings);
  const template = settings.template !== undefined ? { template: settings.template } : {};
  if (tasks)
    return { plan: { tasks, source: attempts.length === 1 ? 'model' : 'repaired', version: 1, ...template }, attempts };
  return { plan: fallbackPlan(goal, settings), attempts };
}

/** The plan when the planner gave none: the template's steps, or the goal as a single task. */
export function fallbackPlan(goal: string, settings: Pick<PlanningSettings, 'template'>): Plan {
  if (settings.template)
    return { tasks: templateTasks(settings.template), source: 'template', version: 1, template: settings.template };
  const single: PlanTask = { id: 't1', description: goal, dependencies: [], requiredTools: [], status: 'pending' };
  return { tasks: [single], source: 'single_task', version: 1 };
}

/**
 * After `failedTaskId` failed: one call plus one repair for new tasks, merged with the completed
 * ones. `plan` is undefined when both replies were invalid; the caller keeps the old plan then.
 */
export async function replan(
  goal: string,
  plan: Plan,
  failedTaskId: string,
  toolNames: readonly string[],
  settings: PlanningSettings,
  model: PlannerModel,
): Promise<{ plan?: Plan; attempts: PlanAttempt[] }> {
  const doneIds = plan.tasks.filter((t) => t.status === 'completed').map((t) => t.id);
  const prompt = replanPrompt(goal, plan, failedTaskId, toolNames);
  const { tasks, attempts } = await askWithRepair(model, prompt, 'replan', settings, doneIds);
  if (!tasks) return { attempts };
  return { plan: { ...mergeReplan(plan, tasks), source: attempts.length === 1 ? 'model' : 'repaired' }, attempts };
}

async function askWithRepair(
  model: PlannerModel,
  prompt: string,
  note: string,
  settings: PlanningSettings,
  doneIds: readonly string[] = [],
): Promise<{ tasks?: PlanTask[]; attempts: PlanAttempt[] }> {
  const system = plannerSystem();
  const attempts: PlanAttempt[] = [];
  const attempt = async (text: string, label: string): Promise<PlanTask[] | undefined> => {
    const reply = await model.ask({ system, prompt: text, note: label });
    const raw = readPlanReply(reply);
    const check =
      raw === undefined
        ? { ok: false as const, problems: ['The reply contains no JSON object.'] }
        : validatePlan(raw, settings, doneIds);
    attempts.push({ reply, problems: check.ok ? [] : check.problems });
    return check.ok ? check.tasks : undefined;
  };
  const first = await attempt(prompt, note);
  // Each call stands alone, so the repair repeats the request before the reply and its problems.
  if (first) return { tasks: first, attempts };
  const previous = attempts[0];
  const repaired = previous
    ? await attempt(`${prompt}\n\n${repairPrompt(previous.reply, previous.problems)}`, `${note} repair`)
    : undefined;
  return repaired ? { tasks: repaired, attempts } : { attempts };
}
