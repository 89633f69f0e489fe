import { z } from 'zod';
import { MAX_JUDGED_ANSWER_CHARS, MAX_VERDICT_TEXT_CHARS, type BranchMark } from '../../domain';
import { redactSecretsInText } from '../../domain/secrets/secret-patterns';
import { BudgetExhausted, ModelCallFailed } from '../core/loop-signals';
import type { RunContext } from '../core/state/run-context';
import { readPlanReply } from '../planning/plans/plan-reply';
import { askForVerdict } from '../planning/verdicts/verdict-call';

/** A branch that finished, as the judge reads it. */
export interface FinishedBranch {
  mark: BranchMark;
  answer: string;
  grounding: string | undefined;
  costUsd: number;
  iterations: number;
}

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
    text = await askForVerdict(ctx, BRANCH_JUDGE_SYSTEM, judgePrompt(task, criteria, finished), 'branch judge', judge && {
      ...judge,
      maxTokens: judge.maxTokens ?? ctx.input.model.maxTokens,
    });
  } catch (err) {
    if (!(err instanceof ModelCallFailed) && !(err instanceof BudgetExhausted)) throw err;
    return fallback(`the judge was unavailable (${err.message})`);
  }
  const json = readPlanReply(text);
  const read = json === undefined ? undefined : JudgeReply.safeParse(json);
  if (!read?.success) return fallback('the judge’s reply was unreadable');
  const { winner, reason } = read.data;
  if (!finished.some((b) => b.mark.index === winner)) return fallback(`the judge named branch ${winner}, which did not finish`);
  return { index: winner, reason: redactSecretsInText(reason.trim()) || 'the judge gave no reason', by: 'judge' };
}

const BRANCH_JUDGE_SYSTEM = [
  'You compare answers to the same task, each found by trying a different approach, and pick the best.',
  'Prefer an answer that is complete, correct for the task, backed by tool results (grounded), and meets the criteria; cost breaks ties.',
  'Reply with one JSON object and nothing else: {"winner": <branch number>, "reason": "<one or two sentences>"}.',
].join('\n');

function judgePrompt(task: string, criteria: string, finished: readonly FinishedBranch[]): string {
  return [
    `Task: ${task}`,
    `Criteria: ${criteria || 'the most complete and correct answer to the task'}`,
    '',
    ...finished.flatMap((b) => [
      `Branch ${b.mark.index} ("${b.mark.label}"), ${b.grounding ?? 'grounding unknown'}, ${b.iterations} iterations, $${b.costUsd.toFixed(4)}:`,
      b.answer.slice(0, MAX_JUDGED_ANSWER_CHARS),
      '',
    ]),
  ].join('\n');
}
