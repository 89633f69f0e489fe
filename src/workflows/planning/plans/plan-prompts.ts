import type { AgentContext, Learning, Plan, PlanningSettings, PlanTask, PlanTemplateName } from '../../../domain';
import { contextPrompt, hasContext } from '../context-prompt';
import { planTemplates } from './plan-templates';
import { earlierNotesBlock, reusedPlanBlock } from '../quoted-notes';
import { readyTasks } from './plan-tracker';
import { awaitsChoice } from './task-choice';

/** Pure text builders for planning calls and the plan note; the same input gives the same text. */

const REPLY_SHAPE =
  '{"tasks": [{"id": "t1", "description": "...", "dependencies": [], "required_tools": ["tool_name"], "estimated_complexity": "low"}]}';

export function plannerSystem(): string {
  return [
    'You are a task planner for an autonomous agent that works with tools.',
    'You break a goal into a short list of concrete subtasks with their dependencies.',
    'You reply with one JSON object and nothing else.',
  ].join(' ');
}

export function plannerPrompt(
  goal: string,
  toolNames: readonly string[],
  settings: Pick<PlanningSettings, 'maxTasks'>,
  template?: PlanTemplateName,
  context?: AgentContext,
): string {
  const parts = [
    `Goal:\n${goal}`,
    toolList(toolNames),
    [
      `Break the goal into at most ${settings.maxTasks} tasks. A simple goal may need a single task.`,
      '- "id": a short unique id such as "t1", "t2".',
      '- "description": one specific, checkable thing to do.',
      '- "dependencies": ids of the tasks that must be completed first; [] for none. No cycles.',
      '- "required_tools": names from the tool list the task will likely use; [] for none.',
      '- "estimated_complexity": "low", "medium" or "high": how much work the task is.',
    ].join('\n'),
  ];
  if (template) {
    const t = planTemplates[template];
    const steps = t.steps.map((s, i) => `${i + 1}. ${s}`).join('\n');
    parts.push(
      `A starting point, the "${t.name}" template (${t.description}):\n${steps}\n` +
        'Adapt it to this goal: drop steps that do not apply, and split or add steps where the goal needs it.',
    );
  }
  // After the instructions, so a file's text cannot be read as one of them.
  if (hasContext(context)) parts.push(contextPrompt(context));
  parts.push(`Reply with only the JSON object, in this shape:\n${REPLY_SHAPE}`);
  return parts.join('\n\n');
}

/** The second and last chance, after the original request: the model sees its own reply and every problem found in it. */
export function repairPrompt(previousReplyText: string, problems: readonly string[]): string {
  return [
    `Your previous reply:\n<reply>\n${previousReplyText}\n</reply>`,
    `It is not a valid plan:\n${problems.map((p) => `- ${p}`).join('\n')}`,
    `Reply with only the corrected JSON object, in this shape:\n${REPLY_SHAPE}`,
  ].join('\n\n');
}

/** After a task failed: completed tasks stay; the model plans the rest again. */
export function replanPrompt(goal: string, plan: Plan, failedTaskId: string, toolNames: readonly string[]): string {
  const failed = plan.tasks.find((t) => t.id === failedTaskId);
  const why = failed?.note ? ` The agent reported: ${failed.note}` : '';
  const done = plan.tasks.filter((t) => t.status === 'completed').map((t) => t.id);
  const keep =
    done.length > 0
      ? `Completed tasks (${done.join(', ')}) stay as they are; do not list them again, but new tasks may depend on their ids.`
      : 'No task is completed yet.';
  return [
    `Goal:\n${goal}`,
    toolList(toolNames),
    planBlock('The current plan', plan),
    `Task "${failedTaskId}" failed.${why}`,
    `${keep} Write new tasks for the rest of the goal that avoid the failure: another approach, or smaller steps. ` +
      'Use ids that are not taken by the completed tasks.',
    `Reply with only the JSON object of the new tasks, in this shape:\n${REPLY_SHAPE}`,
  ].join('\n\n');
}

/** A visible pause every few iterations: the answer is shown, not acted on. */
export function reflectionPrompt(plan: Plan | undefined, iteration: number): string {
  const parts = [`Pause and reflect (iteration ${iteration}). Do not call any tool now.`];
  if (plan) parts.push(planBlock('The plan', plan));
  parts.push(
    'In at most five sentences: what progress has been made towards the goal, what went wrong or was slower ' +
      'than expected, and what you will do next.',
  );
  return parts.join('\n\n');
}

/** What the agent reads before each iteration: where the plan stands and how to report on it. */
export function planNote(plan: Plan, settings: Pick<PlanningSettings, 'updateToolName'>): string {
  const done = plan.tasks.filter((t) => t.status === 'completed').length;
  const current = plan.tasks.find((t) => t.status === 'in_progress');
  const next = readyTasks(plan)[0];
  // A reused plan's descriptions are another run's words: named here by id only, quoted in its block.
  const about = (t: PlanTask) => (plan.reusedFrom ? `${t.id} (see the reused plan)` : `${t.id}: ${t.description}`);
  const tool = settings.updateToolName;
  const focus = current
    ? `Current task: ${about(current)}`
    : awaitsChoice(plan)
      ? choiceRequest(plan, tool)
      : next
        ? `No task is in progress. Next ready task: ${about(next)}`
        : 'No task is in progress or ready to start.';
  const heading = `Plan (version ${plan.version}, ${done} of ${plan.tasks.length} tasks completed)`;
  const own = plan.learnings?.filter((l) => l.fromRun === undefined) ?? [];
  const recalled = plan.learnings?.filter((l) => l.fromRun !== undefined) ?? [];
  return [
    planBlock(heading, plan),
    focus,
    `Report progress with the "${tool}" tool: {"task_id": "<id>", "status": "in_progress"} when you start a task, ` +
      `"completed" with a short "note" when it is done, "failed" with the reason when it cannot be done. ` +
      'Start a task only when its dependencies are completed. Give your final answer when the tasks are done.',
    // Only with learnings: a run without them reads the note as before. This run's own are its
    // guidance; those read from memory were written by other runs, so they come as quoted data.
    ...(own.length ? [learntBlock(own)] : []),
    ...(recalled.length ? [earlierNotesBlock(recalled)] : []),
  ].join('\n\n');
}

/** Seed 003's reasoner, asked in the agent's own turn: which ready task makes the most progress, and why. */
function choiceRequest(plan: Plan, tool: string): string {
  const ready = readyTasks(plan).map((t) => t.id);
  return (
    `No task is in progress. Ready tasks: ${ready.join(', ')}. Choose the one that makes the most progress towards ` +
    `the goal and start it with "${tool}": {"task_id": "<id>", "status": "in_progress", "note": "<why this task now>"}. ` +
    `If your next reply starts none, ${ready[0]} starts (plan order).`
  );
}

/** What this run has learnt so far (planning.observe), oldest first. */
export function learntBlock(learnings: readonly Learning[]): string {
  return `What you have learnt:\n${learnings.map((l) => `- ${l.text}`).join('\n')}`;
}

/** The plan's tasks under a heading; a reused plan's quoted as data with its source. */
function planBlock(heading: string, plan: Plan): string {
  return plan.reusedFrom
    ? reusedPlanBlock(heading, plan.reusedFrom, taskLines(plan.tasks))
    : `${heading}:\n${taskLines(plan.tasks)}`;
}

function toolList(toolNames: readonly string[]): string {
  return toolNames.length > 0
    ? `Tools the agent can use: ${toolNames.join(', ')}.`
    : 'The agent has no tools; it can only reason and answer.';
}

function taskLines(tasks: readonly PlanTask[]): string {
  return tasks
    .map((t) => {
      const after = t.dependencies.length > 0 ? ` (after ${t.dependencies.join(', ')})` : '';
      const note = t.note ? ` Note: ${t.note}` : '';
      // A workflow step's rules, so the agent knows them before a call is refused or held.
      const tools = t.allowedTools ? ` (tools: ${t.allowedTools.join(', ') || 'none'})` : '';
      const approval = t.approval ? ' (every tool call needs approval)' : '';
      return `- ${t.id} [${t.status}] ${t.description}${after}${tools}${approval}${note}`;
    })
    .join('\n');
}
