import { z } from 'zod';
import { MAX_VERDICT_TEXT_CHARS } from '../../domain';
import { redactSecretsInText } from '../../domain/secrets/secret-patterns';
import { BudgetExhausted, ModelCallFailed } from '../core/loop-signals';
import type { RunContext } from '../core/state/run-context';
import { readPlanReply } from '../planning/plans/plan-reply';
import { askForVerdict } from '../planning/verdicts/verdict-call';
import { branchJudgePrompt, branchJudgeSystem, type FinishedBranch } from './branch-judge-prompt';

/** Which branch the run goes on with, and why; `by` says who decided. */
export interface BranchChoice {
  index: number;
  reason: string;
  by: 'judge' | 'rule';
}

const JudgeReply = z.object({
  winner: z.number().int().positive(),
  reason: z.string().max(MAX_VERDICT_TEXT_CHARS).default(''),
});

/**
 * The branch judge: one model call (a visible `llm` step on the run's budget, `branching.judge`
 * or the run's model) reads the finished branches' answers with the call's criteria and names
 * the best. A failed or unaffordable call, an unreadable reply, or a branch that did not finish
 * falls back to the first finished branch in the model's order, and the reason says so.
 */
export async function judgeBranches(
  ctx: RunContext,
  task: string,
  criteria: string,
  finished: readonly FinishedBranch[],
): Promise<BranchChoice> {
  const first = finished[0]!;
  const fallback = (why: string): BranchChoice => ({
    index: first.mark.index,
    reason: `${why}; the first finished branch in order goes on`,
    by: 'rule',
  });
  const judge = ctx.input.branching?.judge;
  let text: string;
  try {
    text = await askForVerdict(
      ctx,
      branchJudgeSystem(),
      branchJudgePrompt(task, criteria, finished),
      'branch judge',
      judge && {
        ...judge,
        maxTokens: judge.maxTokens ?? ctx.input.model.maxTokens,
      },
    );
  } catch (err) {
    if (!(err instanceof ModelCallFailed) && !(err instanceof BudgetExhausted)) throw err;
    return fallback(`the judge was unavailable (${err.message})`);
  }
  const json = readPlanReply(text);
  const read = json === undefined ? undefined : JudgeReply.safeParse(json);
  if (!read?.success) return fallback('the judge’s reply was unreadable');
  const { winner, reason } = read.data;
  if (!finished.some((b) => b.mark.index === winner))
    return fallback(`the judge named branch ${winner}, which did not finish`);
  return { index: winner, reason: redactSecretsInText(reason.trim()) || 'the judge gave no reason', by: 'judge' };
}
