import { relevantTools } from './tool-relevance';

/** The description that marks a plan's last task: answering from the results, with no tool of its own. */
export const ANSWER_TASK = 'Answer the goal from the results of the tasks before';

/**
 * The offline model's plan, from the planner's prompt (src/workflows/planning/plans/plan-prompts.ts),
 * which names the goal and the tools but not their descriptions: one task per tool whose name
 * shares a word with the goal (at most two), else one task to find and call the fitting tools,
 * then the answer task after all of them. 2 or 3 tasks, within the prompt's "at most N", each with
 * its estimated complexity (calling a named tool and answering are low; finding the tools, medium).
 * A re-plan gets prose, not JSON: the offline model has no other approach to offer, and says so
 * (the planner records the reply as invalid and keeps the current plan).
 */
export function offlinePlanReply(prompt: string): string {
  const goal = /Goal:\n([\s\S]*?)\n\n/.exec(prompt)?.[1]?.trim() ?? '';
  if (/\nThe current plan:\n/.test(prompt)) {
    return '[offline model] I have no other approach to this goal than the one that failed, so I make no new plan.';
  }
  const toolNames = /Tools the agent can use: (.*)\./.exec(prompt)?.[1]?.split(', ') ?? [];
  const maxTasks = Number(/at most (\d+) tasks/.exec(prompt)?.[1] ?? 12);
  const fitting = relevantTools(
    goal,
    toolNames.map((name) => ({ name, description: '', inputSchema: {} })),
  )
    .map((t) => t.name)
    .slice(0, Math.max(1, Math.min(2, maxTasks - 1)));
  const work =
    fitting.length > 0
      ? fitting.map((tool, i) => ({
          id: `t${i + 1}`,
          description: `Call ${tool} for: ${goal}`,
          dependencies: [],
          required_tools: [tool],
          estimated_complexity: 'low',
        }))
      : [
          {
            id: 't1',
            description: `Find and call the tools that fit: ${goal}`,
            dependencies: [],
            required_tools: [],
            // Finding the tools first is more work than calling a named one.
            estimated_complexity: 'medium',
          },
        ];
  const answer = {
    id: `t${work.length + 1}`,
    description: `${ANSWER_TASK}: ${goal}`,
    dependencies: work.map((t) => t.id),
    required_tools: [],
    estimated_complexity: 'low',
  };
  const tasks = maxTasks > work.length ? [...work, answer] : work;
  return JSON.stringify({ tasks });
}
