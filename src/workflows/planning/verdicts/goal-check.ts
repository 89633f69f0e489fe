import type { GoalCheckVerdict, Plan, PlanningSettings, ReasoningStep } from '../../../domain';
import { ModelCallFailed } from '../../core/loop-signals';
import type { RunContext } from '../../core/state/run-context';
import { askForVerdict } from './verdict-call';
import { goalCheckPrompt, goalCheckSystem } from './verdict-prompts';
import { readGoalCheckReply } from './verdict-reader';

/** What the check decided: the answer stands, or the agent goes back to work with `instruction`. */
export type GoalCheck =
  | { stands: true; thought: string; verdict?: GoalCheckVerdict }
  | { stands: false; thought: string; verdict: GoalCheckVerdict; instruction: string };

/**
 * The goal-completion check (`planning.goalCheck`): before a run may answer, one model call
 * without tools asks whether the goal is met. Not met sends the agent back with what is missing,
 * at most `maxGoalChecks` times; past that the answer stands unchecked (no call). An unreadable
 * reply or a failed model lets the answer stand, and the step says why.
 */
export async function checkGoal(
  ctx: RunContext,
  settings: Pick<PlanningSettings, 'maxGoalChecks'>,
  plan: Plan | undefined,
  answer: string,
): Promise<GoalCheck> {
  const refusals = goalCheckRefusals(ctx.chain.steps);
  if (refusals >= settings.maxGoalChecks)
    return {
      stands: true,
      thought: `Goal check: it sent the agent back ${refusals} time${refusals === 1 ? '' : 's'} (maxGoalChecks ${settings.maxGoalChecks}); this answer stands without another check.`,
    };
  const attempt = goalChecksMade(ctx.chain.steps) + 1;
  let text: string;
  try {
    text = await askForVerdict(
      ctx,
      goalCheckSystem(),
      goalCheckPrompt(ctx.input.task, plan, answer),
      `goal check ${attempt}`,
    );
  } catch (err) {
    if (!(err instanceof ModelCallFailed)) throw err;
    return { stands: true, thought: `Goal check unavailable (${err.message}); the answer stands.` };
  }
  const read = readGoalCheckReply(text);
  if (!read.ok) return { stands: true, thought: `Goal check reply unreadable (${read.problem}); the answer stands.` };
  const missing = read.value.missing.trim();
  if (read.value.met)
    return {
      stands: true,
      thought: 'Goal check: the goal is met; the answer stands.',
      verdict: { met: true, attempt },
    };
  const what = missing || 'the check did not say what';
  return {
    stands: false,
    thought: `Goal check: the goal is not met yet (${what}); the agent goes back to work.`,
    verdict: { met: false, missing: what, attempt },
    instruction: `The goal is not met yet: ${what}. Continue.`,
  };
}

/** The checks that sent the agent back, in the steps this run holds. */
export function goalCheckRefusals(steps: readonly ReasoningStep[]): number {
  return steps.filter((s) => s.type === 'thinking' && s.goalCheck?.met === false).length;
}

function goalChecksMade(steps: readonly ReasoningStep[]): number {
  return steps.filter((s) => s.type === 'thinking' && s.goalCheck !== undefined).length;
}
