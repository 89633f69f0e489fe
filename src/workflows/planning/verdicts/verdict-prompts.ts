import type { Plan, PlanTask } from '../../../domain';

/**
 * Pure text builders for the observer and the goal-completion check (docs/planning.md): each is
 * one model call without tools, with its own system prompt (the offline model recognises them by
 * it), and asks for one JSON object. The same input gives the same text.
 */

/** How much of one tool result the observer reads: enough to judge it, bounded like the call it makes. */
export const MAX_OBSERVED_RESULT_CHARS = 2_000;
/** How much of the proposed answer the goal check reads. */
export const MAX_CHECKED_ANSWER_CHARS = 4_000;

export function observerSystem(): string {
  return [
    'You are the observer of an autonomous agent that works with tools.',
    'You read the result of its last action and judge it.',
    'You reply with one JSON object and nothing else.',
  ].join(' ');
}

export function goalCheckSystem(): string {
  return [
    'You check whether an autonomous agent has met its goal before it answers.',
    'You reply with one JSON object and nothing else.',
  ].join(' ');
}

/** One call of the action and what came back. */
export interface ObservedCall {
  name: string;
  input: Record<string, unknown>;
  result: string;
  isError: boolean;
}

export function observerPrompt(goal: string, plan: Plan | undefined, calls: readonly ObservedCall[]): string {
  const parts = [`Goal:\n${goal}`];
  if (plan) parts.push(`The plan:\n${planLines(plan.tasks)}`);
  parts.push(
    `The action:\n${calls
      .map(
        (c) =>
          `- ${c.name} ${cut(JSON.stringify(c.input), 500)}\n  Result (${c.isError ? 'error' : 'ok'}): ${cut(c.result, MAX_OBSERVED_RESULT_CHARS)}`,
      )
      .join('\n')}`,
  );
  parts.push(
    [
      'Judge this action:',
      '- "success": did it do what it was meant to (true or false)?',
      '- "learned": one short factual sentence the agent should remember; "" when nothing.',
      '- "unblocked": ids of plan tasks this result makes possible; [] for none.',
      '- "adjustment": a change to the plan it suggests, in words; "" for none.',
      'Reply with only the JSON object, in this shape:\n{"success": true, "learned": "...", "unblocked": [], "adjustment": ""}',
    ].join('\n'),
  );
  return parts.join('\n\n');
}

export function goalCheckPrompt(goal: string, plan: Plan | undefined, answer: string): string {
  const parts = [`Goal:\n${goal}`];
  if (plan) parts.push(`The plan:\n${planLines(plan.tasks)}`);
  parts.push(`The answer the agent proposes:\n${cut(answer, MAX_CHECKED_ANSWER_CHARS)}`);
  parts.push(
    'Is the goal met by this answer and the work done? "met": true or false; "missing": what is still missing ' +
      '(one or two sentences), "" when met.\nReply with only the JSON object, in this shape:\n{"met": true, "missing": ""}',
  );
  return parts.join('\n\n');
}

/** A plan's tasks as the verdict prompts show them; the offline model reads these lines. */
function planLines(tasks: readonly PlanTask[]): string {
  return tasks
    .map((t) => {
      const said = t.result ?? t.note;
      return `- ${t.id} [${t.status}] ${t.description}${said ? ` Result: ${cut(said, 300)}` : ''}`;
    })
    .join('\n');
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
